# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# The Python package's CTest entries (label python): python.install builds the extension with
# pip into the PyLops-MPI comparison's virtual environment, then python.pytest.np<N> runs the
# package's tests under mpiexec at each rank count of DISTLOPS_TEST_RANKS. Without the package
# index every entry reports Skipped with the reason (run_python_tests.py).
find_package(Python3 COMPONENTS Interpreter QUIET)
set(_distlops_python_driver ${PROJECT_SOURCE_DIR}/python/tests/run_python_tests.py)
if(Python3_Interpreter_FOUND AND BUILD_SHARED_LIBS)
  set(_distlops_python_defines --define CMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER})
  if(DISTLOPS_TEST_OPTIMIZATION AND NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
    # The extension of the tests is compiled like the test programs (cmake/DistlopsTesting.cmake).
    # One argument: a separate "-O0" would read as an option of its own.
    list(APPEND _distlops_python_defines --optimization=${DISTLOPS_TEST_OPTIMIZATION})
  endif()
  if(CMAKE_CXX_COMPILER_LAUNCHER)
    list(APPEND _distlops_python_defines --define
         CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  add_test(NAME python.install
    COMMAND ${Python3_EXECUTABLE} ${_distlops_python_driver} install
            --venv ${PROJECT_BINARY_DIR}/porting-venv --source ${PROJECT_SOURCE_DIR}/python
            --build-dir ${PROJECT_BINARY_DIR}/python-build --distlops-dir ${PROJECT_BINARY_DIR}
            ${_distlops_python_defines})
  set_tests_properties(python.install PROPERTIES
    TIMEOUT 900 PROCESSORS 2 LABELS "python" SKIP_RETURN_CODE 77
    FIXTURES_SETUP distlops_python)
  foreach(ranks IN LISTS DISTLOPS_TEST_RANKS)
    # The environment's Python under mpiexec, launched like every other MPI test.
    distlops_mpi_command(_distlops_python_launch ${ranks}
                         ${PROJECT_BINARY_DIR}/porting-venv/bin/python)
    add_test(NAME python.pytest.np${ranks}
      COMMAND ${Python3_EXECUTABLE} ${_distlops_python_driver} pytest
              --venv ${PROJECT_BINARY_DIR}/porting-venv --source ${PROJECT_SOURCE_DIR}/python
              -- ${_distlops_python_launch})
    set_tests_properties(python.pytest.np${ranks} PROPERTIES
      TIMEOUT 300 PROCESSORS ${ranks} LABELS "python;mpi;np${ranks}" SKIP_RETURN_CODE 77
      FIXTURES_REQUIRED distlops_python ENVIRONMENT "${DISTLOPS_HOST_TEST_ENVIRONMENT}")
  endforeach()
else()
  # A static library cannot be loaded by the extension module; no interpreter, no tests.
  add_test(NAME python.install
    COMMAND sh -c "echo 'python: needs a Python interpreter and BUILD_SHARED_LIBS=ON, skipped'; exit 77")
  set_tests_properties(python.install PROPERTIES LABELS "python" SKIP_RETURN_CODE 77)
endif()
