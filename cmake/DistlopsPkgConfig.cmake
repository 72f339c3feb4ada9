# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# distlops.pc, for builds that use pkg-config instead of CMake:
#
#   c++ -std=c++20 app.cpp $(pkg-config --cflags --libs distlops)             # shared library
#   c++ -std=c++20 app.cpp $(pkg-config --static --cflags --libs distlops)    # static library
#
# MPI has no pkg-config module common to every implementation, so the flags FindMPI found are
# written out (as mpicxx would add them). Eigen is a public dependency (the headers use it);
# FFTW, zlib and NCCL are private: a shared libdistlops carries them itself, a static one needs
# them on the link line, which --static adds (Requires.private, Libs.private). cuBLAS and cuFFT
# are not linked at all: the library opens them on first use.
#
#   distlops_write_pkg_config(<output file>)

# Turns a list of libraries (full paths, names or flags) into linker flags.
function(_distlops_pc_libs out)
  set(flags)
  foreach(library IN LISTS ARGN)
    if(library MATCHES "^-")
      list(APPEND flags "${library}")
    elseif(IS_ABSOLUTE "${library}")
      list(APPEND flags "${library}")
    elseif(library)
      list(APPEND flags "-l${library}")
    endif()
  endforeach()
  list(JOIN flags " " flags)
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

function(distlops_write_pkg_config output)
  # Relocatable: the prefix is found from the .pc file's own place, so that an install with
  # `cmake --install --prefix` elsewhere, or a copied tree, still works.
  if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    set(prefix "${CMAKE_INSTALL_PREFIX}")
    set(libdir "${CMAKE_INSTALL_LIBDIR}")
  else()
    file(RELATIVE_PATH up "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
    string(REGEX REPLACE "/$" "" up "${up}")
    set(prefix "\${pcfiledir}/${up}")
    set(libdir "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  endif()
  if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
    set(includedir "${CMAKE_INSTALL_INCLUDEDIR}")
  else()
    set(includedir "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
  endif()

  set(cflags "-I\${includedir}")
  # -isystem, as CMake's imported targets do: MPI's and CUDA's headers are not warning-clean.
  foreach(dir IN LISTS MPI_CXX_INCLUDE_DIRS)
    string(APPEND cflags " -isystem ${dir}")
  endforeach()
  foreach(definition IN LISTS MPI_CXX_COMPILE_DEFINITIONS)
    string(APPEND cflags " -D${definition}")
  endforeach()
  foreach(option IN LISTS MPI_CXX_COMPILE_OPTIONS)
    string(APPEND cflags " ${option}")
  endforeach()
  _distlops_pc_libs(mpi_libs ${MPI_CXX_LINK_FLAGS} ${MPI_CXX_LIBRARIES})
  set(libs "-L\${libdir} -ldistlops ${mpi_libs}")
  set(libs_private "")
  if(DISTLOPS_WITH_CUDA)
    foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
      string(APPEND cflags " -isystem ${dir}")
    endforeach()
    # cuBLAS and cuFFT are opened on first use (dlopen), not linked: no -lcublas or -lcufft;
    # a static libdistlops needs the dynamic loader's library instead.
    string(APPEND libs " -L${CUDAToolkit_LIBRARY_DIR} -lcudart")
    _distlops_pc_libs(dl_libs ${CMAKE_DL_LIBS})
    string(APPEND libs_private " ${dl_libs}")
    if(DISTLOPS_WITH_NCCL)
      string(APPEND libs_private " ${DISTLOPS_NCCL_LIBRARY}")
    endif()
  endif()
  if(DISTLOPS_SANITIZE)
    # An instrumented library needs the sanitizers' run-time libraries in the program.
    string(APPEND libs " -fsanitize=address,undefined")
    string(APPEND cflags " -DDISTLOPS_PORTABLE_KERNELS_ONLY")
  endif()
  # segyio has no pkg-config file: its library goes into Libs.private itself.
  if(DISTLOPS_WITH_SEGYIO)
    string(APPEND libs_private " ${DISTLOPS_SEGYIO_LIBRARY}")
  endif()
  string(STRIP "${libs_private}" libs_private)
  set(requires_private "fftw3 fftw3f openblas zlib")
  if(DISTLOPS_WITH_HDF5)
    string(APPEND requires_private " ${DISTLOPS_HDF5_MODULE_NAME}")
  endif()

  file(WRITE "${output}" "# distlops ${PROJECT_VERSION}, written by CMake
prefix=${prefix}
libdir=${libdir}
includedir=${includedir}

Name: distlops
Description: ${PROJECT_DESCRIPTION}
Version: ${PROJECT_VERSION}
Requires: eigen3 >= 3.4
Requires.private: ${requires_private}
Cflags: ${cflags}
Libs: ${libs}
Libs.private: ${libs_private}
")
endfunction()
