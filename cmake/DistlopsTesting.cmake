# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Registration of MPI test programs: each is run by ctest at several rank counts.

find_program(DISTLOPS_ID_PROGRAM id)
set(DISTLOPS_RUNNING_AS_ROOT OFF)
if(DISTLOPS_ID_PROGRAM)
  execute_process(COMMAND ${DISTLOPS_ID_PROGRAM} -u OUTPUT_VARIABLE _uid OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_uid STREQUAL "0")
    set(DISTLOPS_RUNNING_AS_ROOT ON)
  endif()
endif()

# Tests are launched the way FindMPI describes the MPI found: MPIEXEC_EXECUTABLE
# MPIEXEC_NUMPROC_FLAG <n> MPIEXEC_PREFLAGS <program> MPIEXEC_POSTFLAGS <arguments> (set them
# on the cmake command line for a site's launcher, e.g. -DMPIEXEC_PREFLAGS=--mpi=pmi2 with
# srun). DISTLOPS_MPIEXEC_FLAGS holds what goes before the program: MPIEXEC_PREFLAGS and, when
# the launcher is Open MPI's, the flags this suite needs from it: more ranks than cores is
# expected here; no binding (ranks of concurrent tests would share cores); no single-copy
# shared memory (needs ptrace rights that containers often lack); as root, the explicit
# permission Open MPI asks for. MPICH's, Intel MPI's and Cray's launchers need none of these
# and would reject them.
set(DISTLOPS_MPI_IS_OPEN_MPI OFF)
if(MPIEXEC_EXECUTABLE)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _distlops_mpiexec_version
                  ERROR_VARIABLE _distlops_mpiexec_version TIMEOUT 30)
  if(_distlops_mpiexec_version MATCHES "Open MPI|OpenRTE|Open RTE")
    set(DISTLOPS_MPI_IS_OPEN_MPI ON)
  endif()
endif()
set(DISTLOPS_MPIEXEC_FLAGS ${MPIEXEC_PREFLAGS})
if(DISTLOPS_MPI_IS_OPEN_MPI)
  list(APPEND DISTLOPS_MPIEXEC_FLAGS --oversubscribe --bind-to none
       --mca btl_vader_single_copy_mechanism none)
  if(DISTLOPS_RUNNING_AS_ROOT)
    list(APPEND DISTLOPS_MPIEXEC_FLAGS --allow-run-as-root)
  endif()
endif()
list(JOIN DISTLOPS_MPIEXEC_FLAGS " " _distlops_flags)
list(JOIN MPIEXEC_POSTFLAGS " " _distlops_postflags)
message(STATUS "distlops: tests run as ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} <n> "
               "${_distlops_flags} <program> ${_distlops_postflags} <arguments>")

# distlops_mpi_command(<variable> <ranks> <program>): sets <variable> to the command line that
# starts <program> on <ranks> ranks, arguments to be appended: MPIEXEC_EXECUTABLE
# MPIEXEC_NUMPROC_FLAG <ranks> DISTLOPS_MPIEXEC_FLAGS <program> MPIEXEC_POSTFLAGS. Every test
# that runs under MPI is launched through it, so that a site's launcher settings reach them all.
function(distlops_mpi_command variable ranks program)
  set(${variable} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${DISTLOPS_MPIEXEC_FLAGS}
      ${program} ${MPIEXEC_POSTFLAGS} PARENT_SCOPE)
endfunction()

# Oversubscribed ranks must yield the core while waiting, or waits spin for whole time slices.
set(DISTLOPS_TEST_ENVIRONMENT OMPI_MCA_mpi_yield_when_idle=1)
# ROMIO (MPICH's MPI-IO and one of Open MPI's) allocates its collective buffer (16 MiB by
# default) and data-sieving buffers (up to 4 MiB) at every file open; the hints file makes them
# 64 KiB. The tests'
# files are small, so two-phase I/O then also runs in several rounds, and the sanitizer pass no
# longer poisons and unpoisons 16 MiB of shadow per open (test_npy at one rank: 19 s -> 10 s).
list(APPEND DISTLOPS_TEST_ENVIRONMENT ROMIO_HINTS=${PROJECT_SOURCE_DIR}/tests/support/romio_hints)
if(DISTLOPS_SANITIZE)
  # Open MPI leaks at finalize; tests/support/lsan.supp suppresses leaks allocated inside its
  # libraries and components, which the test programs keep loaded until exit
  # (tests/support/mpi_catch_main.cpp) so that the frame-pointer unwinder's first frame names
  # them.
  list(APPEND DISTLOPS_TEST_ENVIRONMENT
    "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1"
    "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/support/lsan.supp:print_suppressions=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endif()

# The tests' Python (the NumPy exchange tests, the porting comparison): the interpreter on PATH
# when it has NumPy, else the system's /usr/bin/python3 when that has it (scripts/setup.sh
# installs python3-numpy there; a PATH interpreter from pyenv or a module often has no NumPy).
# -DPython3_EXECUTABLE=... chooses another.
if(NOT Python3_EXECUTABLE)
  find_program(DISTLOPS_PATH_PYTHON NAMES python3 python)
  foreach(_distlops_python IN ITEMS ${DISTLOPS_PATH_PYTHON} /usr/bin/python3)
    if(EXISTS "${_distlops_python}")
      execute_process(COMMAND ${_distlops_python} -c "import numpy" RESULT_VARIABLE _distlops_no_numpy
                      OUTPUT_QUIET ERROR_QUIET)
      if(_distlops_no_numpy EQUAL 0)
        set(Python3_EXECUTABLE ${_distlops_python} CACHE FILEPATH
            "Python interpreter of the tests (the first found with NumPy)")
        break()
      endif()
    endif()
  endforeach()
endif()

set(DISTLOPS_TEST_RANKS 1 2 3 4 CACHE STRING "Rank counts at which every MPI test runs")

# The many-rank tier (label scale): every distributed program (registered at more than one
# rank) also runs oversubscribed at 8 ranks, and with DISTLOPS_SCALE_TESTS=all at 16 too, and
# the programs whose cases depend on factorisations of the rank count (FACTORISATIONS: process
# grids, SUMMA, masks) at 5, 7 and 9 as well. 8 and 16 ranks own nothing of the tests' smaller
# shapes and split the others unevenly; 5, 7 and 9 are a prime, a prime and a square.
set(DISTLOPS_SCALE_TESTS np8 CACHE STRING
    "Many-rank tier: np8 (8 ranks, the default), all (8 and 16; 5, 7, 9 where factorised), off")
set_property(CACHE DISTLOPS_SCALE_TESTS PROPERTY STRINGS np8 all off)
if(DISTLOPS_SCALE_TESTS STREQUAL "np8")
  set(DISTLOPS_SCALE_RANKS 8)
  set(DISTLOPS_FACTORISATION_RANKS)
elseif(DISTLOPS_SCALE_TESTS STREQUAL "all")
  set(DISTLOPS_SCALE_RANKS 8 16)
  set(DISTLOPS_FACTORISATION_RANKS 5 7 9)
elseif(DISTLOPS_SCALE_TESTS STREQUAL "off")
  set(DISTLOPS_SCALE_RANKS)
  set(DISTLOPS_FACTORISATION_RANKS)
else()
  message(FATAL_ERROR "DISTLOPS_SCALE_TESTS must be np8, all or off, not '${DISTLOPS_SCALE_TESTS}'")
endif()

# distlops_scale_ranks(<variable> <ranks...> [FACTORISATIONS]): the rank counts of the many-rank
# tier that a program registered at <ranks...> adds (none when it runs at one rank only).
function(distlops_scale_ranks variable)
  cmake_parse_arguments(ARG "FACTORISATIONS" "" "" ${ARGN})
  set(extra)
  set(distributed OFF)
  foreach(ranks IN LISTS ARG_UNPARSED_ARGUMENTS)
    if(ranks GREATER 1)
      set(distributed ON)
    endif()
  endforeach()
  if(distributed)
    set(extra ${DISTLOPS_SCALE_RANKS})
    if(ARG_FACTORISATIONS)
      list(PREPEND extra ${DISTLOPS_FACTORISATION_RANKS})
    endif()
    list(REMOVE_ITEM extra ${ARG_UNPARSED_ARGUMENTS})
  endif()
  set(${variable} ${extra} PARENT_SCOPE)
endfunction()

# Test programs are compiled without optimisation: most of their compile time is spent
# optimising template instantiations that then run on tiny problems, while the library, the
# examples and the benchmarks keep -O3 and do the work. -O1 took about a third off -O3; -O0
# takes off up to another half where the optimiser dominates (one core, GCC 12:
# test_stacks.cpp 36.5 s -> 26.8 s, test_least_squares.cpp 61 s -> 33 s) and nothing where
# template instantiation does (test_sparse.cpp 70.6 s -> 73.0 s), and the programs run about as
# fast (test_stacks at 2 ranks 2.0 s -> 2.05 s, test_least_squares at 1 rank 1.2 s -> 1.7 s).
set(DISTLOPS_TEST_OPTIMIZATION -O0 CACHE STRING
    "Optimisation flag of the test programs in optimised builds (empty: the build type's)")
function(distlops_test_optimization target)
  if(DISTLOPS_TEST_OPTIMIZATION)
    target_compile_options(${target} PRIVATE
      $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<NOT:$<CONFIG:Debug>>>:${DISTLOPS_TEST_OPTIMIZATION}>)
  endif()
endfunction()

# The Cuda instances of the tests written once per space cost 59 of the test programs' 491
# CPU-seconds of compile on a fresh clone (test_stacks.cpp 27.5 -> 18.8 s, test_cg.cpp 20.3 ->
# 14.5 s, with the precompiled header). Where no GPU can run them (scripts/test.sh turns the
# option off when none is visible) they are not compiled and their runs report Skipped at once,
# saying so; the
# library's CUDA code is compiled and linked either way, and scripts/gpu_test.sh compiles and
# runs the instances on a GPU.
option(DISTLOPS_TEST_CUDA_INSTANCES
       "Compile the Cuda instances of the space-generic tests (builds with the CUDA backend)" ON)

# Host runs hide every CUDA device, so that they cannot touch one by accident and the paths of a
# process without a device (DeviceError on every rank) are exercised on every machine.
set(DISTLOPS_HOST_TEST_ENVIRONMENT ${DISTLOPS_TEST_ENVIRONMENT})
if(DISTLOPS_WITH_CUDA)
  list(APPEND DISTLOPS_HOST_TEST_ENVIRONMENT CUDA_VISIBLE_DEVICES=)
endif()
# Device runs exit with 77 (skipped) where no device is visible. After a non-zero exit Open MPI
# waits a second before it kills the job's remaining processes, although every rank has already
# finished: without that wait a skipped run costs 0.5 s instead of 2.5 s.
set(DISTLOPS_DEVICE_TEST_ENVIRONMENT ${DISTLOPS_TEST_ENVIRONMENT}
    OMPI_MCA_odls_base_sigkill_timeout=0)

# distlops_add_exit_test(<name> STATUS <n> MESSAGE <regex> [FORBID <regex>] [PROCESSORS <n>]
#                        [SKIP_WHEN_UNAVAILABLE] [LABELS <labels...>] COMMAND <command...>)
#
# The test of a mistake: <command> must exit with status <n> (examples/support/exit_statuses.txt)
# and print a message matching MESSAGE once; FORBID must not match its output (work that a check
# before the work should have prevented). Run by cmake/expect_exit.cmake with no CUDA device
# visible, labels "errors" and LABELS. A command under MPI comes from distlops_mpi_command.
# SKIP_WHEN_UNAVAILABLE: a command that exits with 77 (a plotting script without matplotlib)
# makes the test Skipped instead of failed.
function(distlops_add_exit_test name)
  cmake_parse_arguments(ARG "SKIP_WHEN_UNAVAILABLE" "STATUS;MESSAGE;FORBID;PROCESSORS"
                        "LABELS;COMMAND" ${ARGN})
  set(expect -DSTATUS=${ARG_STATUS} -DMESSAGE=${ARG_MESSAGE})
  if(DEFINED ARG_FORBID)
    list(APPEND expect -DFORBID=${ARG_FORBID})
  endif()
  if(ARG_SKIP_WHEN_UNAVAILABLE)
    list(APPEND expect -DSKIP_WHEN_UNAVAILABLE=ON)
  endif()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} ${expect}
           -P ${PROJECT_SOURCE_DIR}/cmake/expect_exit.cmake -- ${ARG_COMMAND})
  if(NOT ARG_PROCESSORS)
    set(ARG_PROCESSORS 1)
  endif()
  # A failing rank makes Open MPI wait a second before it ends the others, which have ended.
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 PROCESSORS ${ARG_PROCESSORS}
    LABELS "errors;${ARG_LABELS}"
    ENVIRONMENT "${DISTLOPS_HOST_TEST_ENVIRONMENT};OMPI_MCA_odls_base_sigkill_timeout=0")
  if(ARG_SKIP_WHEN_UNAVAILABLE)
    set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "expect_exit: skipped: ")
  endif()
endfunction()

# distlops_add_mpi_test(<name> SOURCES <files...> [RANKS <n...>] [LABELS <labels...>]
#                       [SPACES <host|cuda...>] [LIBRARIES <targets...>] [TIMEOUT <seconds>]
#                       [ARGS <args...>] [FACTORISATIONS])
#
# Registers <name>.np<N> for every rank count, and for those of the many-rank tier (label
# scale; FACTORISATIONS adds 5, 7 and 9 to it where it runs them): the program's Host test cases
# and those of no space. SPACES names the memory spaces whose space-generic cases the program has
# (tests/support/spaces.hpp; default: host). With cuda, builds with the CUDA backend also
# register <name>.cuda.np<N> (labels cuda and gpu), which runs the Cuda instances
# (--space cuda) and is reported Skipped where no device is visible (distlops_device_gate exits
# with 77 before mpiexec starts, and the main on every rank where a rank sees none).
function(distlops_add_mpi_test name)
  cmake_parse_arguments(ARG "FACTORISATIONS" "TIMEOUT" "SOURCES;RANKS;LABELS;SPACES;LIBRARIES;ARGS"
                        ${ARGN})
  if(NOT ARG_RANKS)
    set(ARG_RANKS ${DISTLOPS_TEST_RANKS})
  endif()
  set(factorisations)
  if(ARG_FACTORISATIONS)
    set(factorisations FACTORISATIONS)
  endif()
  distlops_scale_ranks(scale_ranks ${ARG_RANKS} ${factorisations})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  if(NOT ARG_SPACES)
    set(ARG_SPACES host)
  endif()
  foreach(space IN LISTS ARG_SPACES)
    if(NOT space MATCHES "^(host|cuda)$")
      message(FATAL_ERROR "distlops_add_mpi_test(${name}): unknown space '${space}'")
    endif()
  endforeach()
  add_executable(${name} ${ARG_SOURCES})
  # Registered sources, which distlops_add_operator_tests() leaves to their registration.
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(source ${source} ABSOLUTE)
    set_property(GLOBAL APPEND PROPERTY DISTLOPS_REGISTERED_TEST_SOURCES ${source})
  endforeach()
  target_link_libraries(${name} PRIVATE distlops_test_main distlops_test_support distlops::distlops
                        ${ARG_LIBRARIES})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  target_precompile_headers(${name} REUSE_FROM distlops_test_support)
  distlops_project_flags(${name})
  distlops_test_optimization(${name})
  set(runs host)
  if(DISTLOPS_WITH_CUDA AND "cuda" IN_LIST ARG_SPACES)
    list(APPEND runs cuda)
    if(NOT TARGET distlops_device_gate)
      add_executable(distlops_device_gate ${PROJECT_SOURCE_DIR}/tests/support/device_gate.cpp)
      target_link_libraries(distlops_device_gate PRIVATE CUDA::cudart)
      distlops_project_flags(distlops_device_gate)
    endif()
  endif()
  foreach(run IN LISTS runs)
    # The many-rank tier runs the host cases: device runs share one GPU per machine.
    set(run_ranks ${ARG_RANKS})
    if(run STREQUAL "host")
      list(APPEND run_ranks ${scale_ranks})
    endif()
    foreach(ranks IN LISTS run_ranks)
      set(tier)
      if(ranks IN_LIST scale_ranks)
        set(tier scale)
      endif()
      if(run STREQUAL "host")
        set(test_name ${name}.np${ranks})
        set(gate)
        set(space_args)
        set(labels "mpi;np${ranks};${tier};${ARG_LABELS}")
        set(environment "${DISTLOPS_HOST_TEST_ENVIRONMENT}")
      else()
        set(test_name ${name}.${run}.np${ranks})
        set(gate $<TARGET_FILE:distlops_device_gate>)
        set(space_args --space ${run})
        set(labels "mpi;np${ranks};${run};gpu;${ARG_LABELS}")
        set(environment "${DISTLOPS_DEVICE_TEST_ENVIRONMENT}")
      endif()
      distlops_mpi_command(launch ${ranks} $<TARGET_FILE:${name}>)
      if(run STREQUAL "cuda" AND NOT DISTLOPS_TEST_CUDA_INSTANCES)
        add_test(NAME ${test_name} COMMAND ${CMAKE_COMMAND} -E echo
                 "Skipped: ${name}'s Cuda instances are not compiled (DISTLOPS_TEST_CUDA_INSTANCES=OFF, no GPU visible when configured)")
        set_tests_properties(${test_name} PROPERTIES LABELS "${labels}"
                             SKIP_REGULAR_EXPRESSION "^Skipped: ")
        continue()
      endif()
      add_test(NAME ${test_name} COMMAND ${gate} ${launch} ${space_args} ${ARG_ARGS})
      set_tests_properties(${test_name} PROPERTIES
        TIMEOUT ${ARG_TIMEOUT}
        PROCESSORS ${ranks}
        LABELS "${labels}"
        ENVIRONMENT "${environment}")
      if(NOT run STREQUAL "host")
        set_tests_properties(${test_name} PROPERTIES SKIP_RETURN_CODE 77)
      endif()
    endforeach()
  endforeach()
endfunction()

# distlops_add_operator_tests(): registers every tests/operators/<group>/test_<name>.cpp that no
# distlops_add_mpi_test() call has registered, for every group of the library (the folders of
# operators/ but host/ and cuda/), as test_<group>_<name> at every rank count in every memory
# space (labels operators and <group>). A new operator's test (scripts/new_operator.sh) thus
# needs no line here; programs that need other settings are registered by name before the call.
function(distlops_add_operator_tests)
  file(GLOB groups LIST_DIRECTORIES true RELATIVE ${PROJECT_SOURCE_DIR}/operators
       ${PROJECT_SOURCE_DIR}/operators/*)
  get_property(registered GLOBAL PROPERTY DISTLOPS_REGISTERED_TEST_SOURCES)
  foreach(group IN LISTS groups)
    if(NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/operators/${group} OR group MATCHES "^(host|cuda)$")
      continue()
    endif()
    file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/operators/${group}/test_*.cpp)
    foreach(source IN LISTS sources)
      if(source IN_LIST registered)
        continue()
      endif()
      get_filename_component(stem ${source} NAME_WE)
      string(REGEX REPLACE "^test_" "" name ${stem})
      distlops_add_mpi_test(test_${group}_${name} SOURCES ${source} LABELS operators ${group}
                            SPACES host cuda)
    endforeach()
  endforeach()
endfunction()
