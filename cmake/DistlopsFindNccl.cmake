# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# distlops_find_nccl(): looks for NCCL's header and library, one installation at a time.
#
# Sets the cache variables DISTLOPS_NCCL_INCLUDE_DIR and DISTLOPS_NCCL_LIBRARY, and in the
# caller's scope DISTLOPS_NCCL_VERSION ("2.28.9"), DISTLOPS_NCCL_VERSION_CODE (nccl.h's
# NCCL_VERSION_CODE: 22809) and DISTLOPS_NCCL_WHEEL_DIR (the nvidia-nccl wheel's folder, or
# why there is none, for messages).
#
# Where it looks, first match wins:
#   1. NCCL_ROOT (CMake or environment variable), NCCL_HOME;
#   2. the nvidia-nccl-cu* wheel of the Python interpreter found first (python3 on PATH, or
#      Python3_EXECUTABLE): site-packages/nvidia/nccl/{include,lib};
#   3. beside the CUDA toolkit (some installations copy NCCL there; the toolkit does not ship it);
#   4. the system paths.
# The library is searched for beside the header found first, so that a header of one
# installation is never paired with the library of another. The wheel has libnccl.so.2 and no
# libnccl.so link, so both names are accepted.
function(distlops_find_nccl)
  set(wheel_dir "")
  if(NOT Python3_EXECUTABLE)
    find_package(Python3 COMPONENTS Interpreter QUIET)
  endif()
  if(Python3_EXECUTABLE)
    # nvidia.nccl is a namespace package (no __init__.py): ask for its path, not its __file__.
    execute_process(
      COMMAND "${Python3_EXECUTABLE}" -c
              "import nvidia.nccl as m; print(list(m.__path__)[0])"
      OUTPUT_VARIABLE wheel_dir
      OUTPUT_STRIP_TRAILING_WHITESPACE
      ERROR_QUIET
      RESULT_VARIABLE python_status
      TIMEOUT 30)
    if(NOT python_status EQUAL 0 OR NOT IS_DIRECTORY "${wheel_dir}")
      set(wheel_dir "")
    endif()
  endif()
  if(wheel_dir)
    set(DISTLOPS_NCCL_WHEEL_DIR "${wheel_dir}" PARENT_SCOPE)
  elseif(Python3_EXECUTABLE)
    set(DISTLOPS_NCCL_WHEEL_DIR "${Python3_EXECUTABLE} has no module nvidia.nccl" PARENT_SCOPE)
  else()
    set(DISTLOPS_NCCL_WHEEL_DIR "no Python interpreter found" PARENT_SCOPE)
  endif()

  set(roots ${NCCL_ROOT} $ENV{NCCL_ROOT} $ENV{NCCL_HOME} ${wheel_dir})
  if(CUDAToolkit_LIBRARY_ROOT)
    list(APPEND roots "${CUDAToolkit_LIBRARY_ROOT}")
  endif()
  find_path(DISTLOPS_NCCL_INCLUDE_DIR nccl.h
    HINTS ${roots} ${CUDAToolkit_INCLUDE_DIRS}
    PATH_SUFFIXES include
    DOC "Folder of nccl.h")
  set(library_names nccl libnccl.so.2)
  if(DISTLOPS_NCCL_INCLUDE_DIR)
    get_filename_component(installation "${DISTLOPS_NCCL_INCLUDE_DIR}" DIRECTORY)
    find_library(DISTLOPS_NCCL_LIBRARY NAMES ${library_names}
      HINTS "${installation}"
      PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu lib/aarch64-linux-gnu
      NO_DEFAULT_PATH
      DOC "NCCL's shared library (libnccl.so or libnccl.so.2)")
  endif()
  find_library(DISTLOPS_NCCL_LIBRARY NAMES ${library_names}
    HINTS ${roots} ${CUDAToolkit_LIBRARY_DIR}
    PATH_SUFFIXES lib lib64
    DOC "NCCL's shared library (libnccl.so or libnccl.so.2)")

  set(version "")
  set(code 0)
  if(DISTLOPS_NCCL_INCLUDE_DIR AND EXISTS "${DISTLOPS_NCCL_INCLUDE_DIR}/nccl.h")
    file(STRINGS "${DISTLOPS_NCCL_INCLUDE_DIR}/nccl.h" defines
         REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) +[0-9]+")
    foreach(part MAJOR MINOR PATCH)
      set(${part} "")
      foreach(line IN LISTS defines)
        if(line MATCHES "^#define NCCL_${part} +([0-9]+)")
          set(${part} "${CMAKE_MATCH_1}")
        endif()
      endforeach()
    endforeach()
    if(NOT MAJOR STREQUAL "" AND NOT MINOR STREQUAL "" AND NOT PATCH STREQUAL "")
      set(version "${MAJOR}.${MINOR}.${PATCH}")
      # nccl.h's NCCL_VERSION(X, Y, Z), whose encoding changed after 2.8.
      if(MAJOR LESS_EQUAL 2 AND MINOR LESS_EQUAL 8)
        math(EXPR code "${MAJOR} * 1000 + ${MINOR} * 100 + ${PATCH}")
      else()
        math(EXPR code "${MAJOR} * 10000 + ${MINOR} * 100 + ${PATCH}")
      endif()
    endif()
  endif()
  set(DISTLOPS_NCCL_VERSION "${version}" PARENT_SCOPE)
  set(DISTLOPS_NCCL_VERSION_CODE "${code}" PARENT_SCOPE)
endfunction()
