# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# ---- scripts/new_operator.sh, proved --------------------------------------------------------
# scaffold.generate runs the scaffold for a throwaway operator in a copy of the sources under the
# build directory (tests/scaffold/generate.sh checks what it writes); scaffold.configure and
# scaffold.build compile the operator, its kernels and its generated test as the library would
# (tests/scaffold/CMakeLists.txt) against this build; scaffold.np<N> runs that test at 1 and 2
# ranks, on the host. The throwaway never enters the library or the sources.
find_program(DISTLOPS_BASH bash)
find_program(DISTLOPS_SCAFFOLD_PYTHON NAMES python3)
if(DISTLOPS_BASH AND DISTLOPS_SCAFFOLD_PYTHON AND BUILD_SHARED_LIBS)
  set(scaffold_dir ${PROJECT_BINARY_DIR}/scaffold)
  set(scaffold_tree ${scaffold_dir}/tree)
  add_test(NAME scaffold.generate
    COMMAND ${DISTLOPS_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/scaffold/generate.sh ${PROJECT_SOURCE_DIR}
            ${scaffold_tree} ScaffoldCheck signal)
  set(scaffold_args -G ${CMAKE_GENERATOR} -DCMAKE_BUILD_TYPE=$<CONFIG>
      -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER} -DCMAKE_CXX_FLAGS_RELEASE=-O0
      -Ddistlops_DIR=${PROJECT_BINARY_DIR} -DSCAFFOLD_TREE=${scaffold_tree}
      -DSCAFFOLD_GROUP=signal -DSCAFFOLD_FILE=scaffold_check
      "-DSCAFFOLD_TEST_LIBRARIES=$<TARGET_FILE:distlops_test_main>\;$<TARGET_FILE:distlops_test_support>\;$<TARGET_FILE:distlops_test_reference>"
      -DSCAFFOLD_CATCH2_COMPAT_DIR=${DISTLOPS_CATCH2_COMPAT_DIR})
  if(MPI_CXX_COMPILER)
    list(APPEND scaffold_args -DMPI_CXX_COMPILER=${MPI_CXX_COMPILER})
  endif()
  if(CMAKE_CXX_COMPILER_LAUNCHER)
    list(APPEND scaffold_args -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  if(DISTLOPS_WITH_CUDA)
    list(APPEND scaffold_args -DCMAKE_CUDA_COMPILER=${CMAKE_CUDA_COMPILER}
         "-DCMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES}"
         -DCUDAToolkit_ROOT=${DISTLOPS_CUDA_TOOLKIT_ROOT})
    if(CMAKE_CUDA_COMPILER_LAUNCHER)
      list(APPEND scaffold_args -DCMAKE_CUDA_COMPILER_LAUNCHER=${CMAKE_CUDA_COMPILER_LAUNCHER})
    endif()
  endif()
  add_test(NAME scaffold.configure
    COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_SOURCE_DIR}/scaffold -B ${scaffold_dir}/build
            ${scaffold_args})
  add_test(NAME scaffold.build
    COMMAND ${CMAKE_COMMAND} --build ${scaffold_dir}/build --config $<CONFIG>)
  set_tests_properties(scaffold.generate PROPERTIES FIXTURES_SETUP scaffold_generated)
  set_tests_properties(scaffold.configure PROPERTIES
    FIXTURES_REQUIRED scaffold_generated FIXTURES_SETUP scaffold_configured)
  set_tests_properties(scaffold.build PROPERTIES
    FIXTURES_REQUIRED scaffold_configured FIXTURES_SETUP scaffold_built TIMEOUT 900)
  set(scaffold_tests scaffold.generate scaffold.configure scaffold.build)
  foreach(ranks 1 2)
    distlops_mpi_command(launch ${ranks} ${scaffold_dir}/build/scaffold_check)
    add_test(NAME scaffold.np${ranks} COMMAND ${launch})
    set_tests_properties(scaffold.np${ranks} PROPERTIES
      FIXTURES_REQUIRED scaffold_built PROCESSORS ${ranks}
      ENVIRONMENT "${DISTLOPS_HOST_TEST_ENVIRONMENT}")
    list(APPEND scaffold_tests scaffold.np${ranks})
  endforeach()
  set_tests_properties(${scaffold_tests} PROPERTIES LABELS scaffold)
endif()
