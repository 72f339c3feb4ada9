# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# The Python package's CTest entries (label python): python.install builds the wheel of
# pip install . (with this build's library: only the extension is compiled) and installs it into
# the PyLops-MPI comparison's virtual environment, then python.pytest.np<N> runs the package's
# tests under mpiexec at each rank count of DISTLOPS_TEST_RANKS; python.wheel.np1 installs the
# same wheel into a fresh virtual environment, with what it declares, and runs the tests from
# there at 1 rank; python.sdist checks both source distributions. Without the package index
# every entry reports Skipped with the reason (run_python_tests.py).
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
            --venv ${PROJECT_BINARY_DIR}/porting-venv --project ${PROJECT_SOURCE_DIR}
            --build-dir ${PROJECT_BINARY_DIR}/python-build
            --wheel-dir ${PROJECT_BINARY_DIR}/python-wheel --distlops-dir ${PROJECT_BINARY_DIR}
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
  # The wheel as a user installs it: a fresh environment, the wheel's dependencies from the
  # index, the tests at 1 rank from there (those needing PyLops-MPI or PyProximal are skipped:
  # the comparison environment runs them, at every rank count). It reuses python.install's
  # wheel: it costs the environment, the downloads and one run of the tests, no compilation.
  distlops_mpi_command(_distlops_python_launch 1 ${PROJECT_BINARY_DIR}/wheel-venv/bin/python)
  add_test(NAME python.wheel.np1
    COMMAND ${Python3_EXECUTABLE} ${_distlops_python_driver} wheel-venv
            --venv ${PROJECT_BINARY_DIR}/wheel-venv --wheel-dir ${PROJECT_BINARY_DIR}/python-wheel
            --source ${PROJECT_SOURCE_DIR}/python -- ${_distlops_python_launch})
  set_tests_properties(python.wheel.np1 PROPERTIES
    TIMEOUT 300 LABELS "python;mpi;np1" SKIP_RETURN_CODE 77
    FIXTURES_REQUIRED distlops_python ENVIRONMENT "${DISTLOPS_HOST_TEST_ENVIRONMENT}")
  # PyLops-MPI 0.8.0's own tests/, unedited, against distlops.pylops_mpi: one pytest session
  # per rank count (1 to 3), fetched once from the index into the build tree; each entry fails
  # when a test that python/tests/pylops_mpi_suite/expected.np<N>.txt lists does not pass.
  # DISTLOPS_PYLOPS_MPI_SUITE_FILES lists the files run (';'-separated); empty, the default,
  # runs all 17 files of its tests/.
  set(DISTLOPS_PYLOPS_MPI_SUITE_FILES ""
      CACHE STRING "PyLops-MPI's test files that pylops_mpi.suite.np<N> run (empty: all)")
  foreach(ranks 1 2 3)
    distlops_mpi_command(_distlops_python_launch ${ranks}
                         ${PROJECT_BINARY_DIR}/porting-venv/bin/python)
    add_test(NAME pylops_mpi.suite.np${ranks}
      COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/python/tests/pylops_mpi_suite/run_suite.py
              --venv ${PROJECT_BINARY_DIR}/porting-venv --work ${PROJECT_BINARY_DIR}/pylops-mpi-suite
              --ranks ${ranks}
              --expected ${PROJECT_SOURCE_DIR}/python/tests/pylops_mpi_suite/expected.np${ranks}.txt
              "--files=${DISTLOPS_PYLOPS_MPI_SUITE_FILES}" -- ${_distlops_python_launch})
    set_tests_properties(pylops_mpi.suite.np${ranks} PROPERTIES
      TIMEOUT 900 PROCESSORS ${ranks} LABELS "python;mpi;np${ranks}" SKIP_RETURN_CODE 77
      FIXTURES_REQUIRED distlops_python ENVIRONMENT "${DISTLOPS_HOST_TEST_ENVIRONMENT}")
  endforeach()
  # PyLops-MPI 0.8.0's gallery (examples/plot_*.py, from the same source distribution) at 2
  # ranks with only the import changed; fails when a script raises or a number differs from
  # the real PyLops-MPI's (python/tests/pylops_mpi_gallery/reference.np2.json) beyond the
  # tolerance, unless expected.np2.txt there says why.
  distlops_mpi_command(_distlops_python_launch 2 ${PROJECT_BINARY_DIR}/porting-venv/bin/python)
  add_test(NAME pylops_mpi.gallery.np2
    COMMAND ${Python3_EXECUTABLE}
            ${PROJECT_SOURCE_DIR}/python/tests/pylops_mpi_gallery/run_gallery.py
            --venv ${PROJECT_BINARY_DIR}/porting-venv --work ${PROJECT_BINARY_DIR}/pylops-mpi-suite
            --ranks 2 --numbers ${PROJECT_SOURCE_DIR}/python/tests/pylops_mpi_gallery/reference.np2.json
            --expected ${PROJECT_SOURCE_DIR}/python/tests/pylops_mpi_gallery/expected.np2.txt
            -- ${_distlops_python_launch})
  set_tests_properties(pylops_mpi.gallery.np2 PROPERTIES
    TIMEOUT 600 PROCESSORS 2 LABELS "python;mpi;np2" SKIP_RETURN_CODE 77
    FIXTURES_REQUIRED distlops_python ENVIRONMENT "${DISTLOPS_HOST_TEST_ENVIRONMENT}")
  add_test(NAME python.sdist
    COMMAND ${Python3_EXECUTABLE} ${_distlops_python_driver} sdist
            --venv ${PROJECT_BINARY_DIR}/porting-venv --project ${PROJECT_SOURCE_DIR}
            --work ${PROJECT_BINARY_DIR}/python-sdist)
  set_tests_properties(python.sdist PROPERTIES
    TIMEOUT 120 LABELS "python" SKIP_RETURN_CODE 77 FIXTURES_REQUIRED distlops_python)
else()
  # A static library cannot be loaded by the extension module; no interpreter, no tests.
  add_test(NAME python.install
    COMMAND sh -c "echo 'python: needs a Python interpreter and BUILD_SHARED_LIBS=ON, skipped'; exit 77")
  set_tests_properties(python.install PROPERTIES LABELS "python" SKIP_RETURN_CODE 77)
endif()
