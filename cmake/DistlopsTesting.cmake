# Registration of MPI test programs: each is run by ctest at several rank counts.

find_program(DISTLOPS_ID_PROGRAM id)
set(DISTLOPS_RUNNING_AS_ROOT OFF)
if(DISTLOPS_ID_PROGRAM)
  execute_process(COMMAND ${DISTLOPS_ID_PROGRAM} -u OUTPUT_VARIABLE _uid OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_uid STREQUAL "0")
    set(DISTLOPS_RUNNING_AS_ROOT ON)
  endif()
endif()

# Open MPI flags: more ranks than cores is expected here; no binding (ranks of concurrent
# tests would share cores); no single-copy shared memory (needs ptrace rights that containers
# often lack).
set(DISTLOPS_MPIEXEC_FLAGS --oversubscribe --bind-to none --mca btl_vader_single_copy_mechanism none)
if(DISTLOPS_RUNNING_AS_ROOT)
  list(APPEND DISTLOPS_MPIEXEC_FLAGS --allow-run-as-root)
endif()
# Oversubscribed ranks must yield the core while waiting, or waits spin for whole time slices.
set(DISTLOPS_TEST_ENVIRONMENT OMPI_MCA_mpi_yield_when_idle=1)
if(DISTLOPS_SANITIZE)
  # Open MPI leaks at finalize; tests/support/lsan.supp suppresses leaks allocated inside its
  # libraries. To match, a leak's allocation stack must reach them: the DWARF unwinder
  # (fast_unwind_on_malloc=0) walks through Open MPI's frames, which have no frame pointers,
  # and components stay loaded at finalize so that their frames can still be named.
  list(APPEND DISTLOPS_TEST_ENVIRONMENT
    OMPI_MCA_mca_base_component_disable_dlclose=1
    "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:fast_unwind_on_malloc=0"
    "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/support/lsan.supp:print_suppressions=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endif()

set(DISTLOPS_TEST_RANKS 1 2 3 4 CACHE STRING "Rank counts at which every MPI test runs")

# Test programs are compiled with less optimisation than the library: most of their compile
# time is spent optimising template instantiations that then run on tiny problems, and -O1
# cuts it by about a third while the library, the examples and the benchmarks keep -O3.
set(DISTLOPS_TEST_OPTIMIZATION -O1 CACHE STRING
    "Optimisation flag of the test programs in optimised builds (empty: the build type's)")
function(distlops_test_optimization target)
  if(DISTLOPS_TEST_OPTIMIZATION)
    target_compile_options(${target} PRIVATE
      $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<NOT:$<CONFIG:Debug>>>:${DISTLOPS_TEST_OPTIMIZATION}>)
  endif()
endfunction()

# distlops_add_mpi_test(<name> SOURCES <files...> [RANKS <n...>] [LABELS <labels...>]
#                       [LIBRARIES <targets...>] [TIMEOUT <seconds>] [ARGS <args...>])
function(distlops_add_mpi_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;RANKS;LABELS;LIBRARIES;ARGS" ${ARGN})
  if(NOT ARG_RANKS)
    set(ARG_RANKS ${DISTLOPS_TEST_RANKS})
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE distlops_test_main distlops_test_support distlops::distlops
                        ${ARG_LIBRARIES})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  target_precompile_headers(${name} REUSE_FROM distlops_test_support)
  distlops_project_flags(${name})
  distlops_test_optimization(${name})
  foreach(ranks IN LISTS ARG_RANKS)
    set(test_name ${name}.np${ranks})
    add_test(NAME ${test_name}
      COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${DISTLOPS_MPIEXEC_FLAGS}
              $<TARGET_FILE:${name}> ${ARG_ARGS})
    set_tests_properties(${test_name} PROPERTIES
      TIMEOUT ${ARG_TIMEOUT}
      PROCESSORS ${ranks}
      LABELS "mpi;np${ranks};${ARG_LABELS}"
      ENVIRONMENT "${DISTLOPS_TEST_ENVIRONMENT}")
  endforeach()
endfunction()
