# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# ---- the package, as projects outside the tree use it -------------------------------------------
# consumer.install installs this build into the build tree (after consumer.clean removed what an
# earlier run installed); then tests/consumer is built and run on 2 ranks four ways:
#   consumer.*            find_package(distlops) against the install (the library this build
#                         makes: shared by default, static with -DBUILD_SHARED_LIBS=OFF)
#   consumer.buildtree.*  find_package(distlops) against this build directory, not installed
#   consumer.pkgconfig.*  a compiler and `pkg-config [--static] --cflags --libs distlops`
#   consumer.components.* find_package(distlops COMPONENTS CUDA|NCCL): found when this build
#                         has it, else a configure error that says so
# and consumer.examples.* configures the installed examples (share/distlops/examples) against
# the install and builds one of them. Running one test alone (ctest -R consumer.run) runs the
# fixtures it needs.
option(DISTLOPS_TEST_INSTALL "Test the installed package with a consumer project" ON)
if(DISTLOPS_TEST_INSTALL)
  set(consumer_dir ${PROJECT_BINARY_DIR}/consumer)
  set(consumer_source ${PROJECT_SOURCE_DIR}/tests/consumer)
  set(consumer_prefix ${consumer_dir}/install)
  set(config_dir)
  if(CMAKE_CONFIGURATION_TYPES)
    set(config_dir /$<CONFIG>)
  endif()
  # The consumer must find the MPI this build uses, not the system's default one.
  # Unoptimised: the consumers prove that they build, link and run, and -O0 compiles fastest.
  set(consumer_cmake_args -G ${CMAKE_GENERATOR} -DCMAKE_BUILD_TYPE=$<CONFIG>
      -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER} -DCMAKE_CXX_FLAGS_RELEASE=-O0
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -DCMAKE_CXX_FLAGS_MINSIZEREL=-O0
      -DCMAKE_CXX_FLAGS_DEBUG=-O0)
  if(MPI_CXX_COMPILER)
    list(APPEND consumer_cmake_args -DMPI_CXX_COMPILER=${MPI_CXX_COMPILER})
  endif()
  if(DISTLOPS_WITH_CUDA)
    list(APPEND consumer_cmake_args -DCUDAToolkit_ROOT=${DISTLOPS_CUDA_TOOLKIT_ROOT})
  endif()
  # In the sanitizer pass the consumers run without leak checks: MPICH leaks at finalize from
  # modules it has already unloaded, which no suppression can name (distlops' test programs
  # keep them loaded, tests/support/mpi_catch_main.cpp, and keep the leak checks).
  set(consumer_environment ${DISTLOPS_TEST_ENVIRONMENT})
  if(DISTLOPS_SANITIZE)
    list(FILTER consumer_environment EXCLUDE REGEX "^ASAN_OPTIONS=")
    list(APPEND consumer_environment "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
  endif()

  add_test(NAME consumer.clean COMMAND ${CMAKE_COMMAND} -E rm -rf ${consumer_dir})
  add_test(NAME consumer.install
    COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR} --prefix ${consumer_prefix}
            --config $<CONFIG>)
  set_tests_properties(consumer.clean PROPERTIES FIXTURES_SETUP consumer_clean)
  set_tests_properties(consumer.install PROPERTIES
    FIXTURES_REQUIRED consumer_clean FIXTURES_SETUP consumer_installed)
  # The install carries the licence, unchanged.
  add_test(NAME consumer.license
    COMMAND ${CMAKE_COMMAND} -E compare_files ${PROJECT_SOURCE_DIR}/LICENSE
            ${consumer_prefix}/${CMAKE_INSTALL_DOCDIR}/LICENSE)
  set_tests_properties(consumer.license PROPERTIES FIXTURES_REQUIRED consumer_installed)
  set(consumer_tests consumer.clean consumer.install consumer.license)

  # distlops_consumer_route(<route> <configure arguments...>): <route>.configure, .build, .run.
  function(distlops_consumer_route route)
    set(build ${consumer_dir}/${route})
    add_test(NAME ${route}.configure
      COMMAND ${CMAKE_COMMAND} -S ${consumer_source} -B ${build} ${consumer_cmake_args} ${ARGN})
    add_test(NAME ${route}.build COMMAND ${CMAKE_COMMAND} --build ${build} --config $<CONFIG>)
    distlops_mpi_command(launch 2 ${build}${config_dir}/consumer)
    add_test(NAME ${route}.run COMMAND ${launch} 2)
    set_tests_properties(${route}.configure PROPERTIES
      FIXTURES_REQUIRED consumer_installed FIXTURES_SETUP ${route}_configured)
    set_tests_properties(${route}.build PROPERTIES
      FIXTURES_REQUIRED ${route}_configured FIXTURES_SETUP ${route}_built)
    set_tests_properties(${route}.run PROPERTIES
      FIXTURES_REQUIRED ${route}_built PROCESSORS 2 ENVIRONMENT "${consumer_environment}")
    set(consumer_tests ${consumer_tests} ${route}.configure ${route}.build ${route}.run
        PARENT_SCOPE)
  endfunction()
  # The install (the default route keeps the name consumer.*) and the build tree.
  distlops_consumer_route(consumer -DCMAKE_PREFIX_PATH=${consumer_prefix})
  distlops_consumer_route(consumer.buildtree -Ddistlops_DIR=${PROJECT_BINARY_DIR})

  # pkg-config, with --static for a static library.
  find_program(DISTLOPS_PKG_CONFIG NAMES pkg-config pkgconf)
  if(DISTLOPS_PKG_CONFIG)
    set(static OFF)
    if(NOT BUILD_SHARED_LIBS)
      set(static ON)
    endif()
    add_test(NAME consumer.pkgconfig.build
      COMMAND ${CMAKE_COMMAND} -DPKG_CONFIG=${DISTLOPS_PKG_CONFIG}
              -DPC_DIR=${consumer_prefix}/${CMAKE_INSTALL_LIBDIR}/pkgconfig
              -DCXX=${CMAKE_CXX_COMPILER} -DSOURCE=${consumer_source}/main.cpp
              -DOUTPUT=${consumer_dir}/pkgconfig/consumer -DSTATIC=${static}
              -P ${consumer_source}/pkg_config_build.cmake)
    distlops_mpi_command(launch 2 ${consumer_dir}/pkgconfig/consumer)
    add_test(NAME consumer.pkgconfig.run COMMAND ${launch} 2)
    set_tests_properties(consumer.pkgconfig.build PROPERTIES
      FIXTURES_REQUIRED consumer_installed FIXTURES_SETUP consumer_pkgconfig_built)
    set_tests_properties(consumer.pkgconfig.run PROPERTIES
      FIXTURES_REQUIRED consumer_pkgconfig_built PROCESSORS 2
      ENVIRONMENT "${consumer_environment}")
    list(APPEND consumer_tests consumer.pkgconfig.build consumer.pkgconfig.run)
  endif()

  # Components: found exactly when this build has them, with a message naming the missing one.
  foreach(component CUDA NCCL)
    string(TOLOWER ${component} lower)
    set(test consumer.components.${lower})
    add_test(NAME ${test}
      COMMAND ${CMAKE_COMMAND} -S ${consumer_source} -B ${consumer_dir}/components-${lower}
              ${consumer_cmake_args} -DCMAKE_PREFIX_PATH=${consumer_prefix}
              -DDISTLOPS_CONSUMER_COMPONENTS=${component})
    set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED consumer_installed)
    if(DISTLOPS_WITH_${component})
      set_tests_properties(${test} PROPERTIES
        PASS_REGULAR_EXPRESSION "${component} found: (ON|TRUE|1)")
    else()
      set_tests_properties(${test} PROPERTIES
        PASS_REGULAR_EXPRESSION "requested[ \n]+component[ \n]+missing:(.|\n)*built[ \n]+without[ \n]+${component}"
        FAIL_REGULAR_EXPRESSION "consumer: distlops")
    endif()
    list(APPEND consumer_tests ${test})
  endforeach()
  # Without the CUDA backend, "built without the CUDA backend" must be the message. CMake wraps
  # the message at spaces, where the install prefix's length decides: any space may be a newline.
  if(NOT DISTLOPS_WITH_CUDA)
    set_tests_properties(consumer.components.cuda PROPERTIES
      PASS_REGULAR_EXPRESSION
      "requested[ \n]+component[ \n]+missing:(.|\n)*built[ \n]+without[ \n]+the[ \n]+CUDA[ \n]+backend")
  endif()

  # The installed examples, with their own CMakeLists.txt, against the install: configured
  # whole (every source must be there), one program built.
  set(examples_build ${consumer_dir}/examples)
  add_test(NAME consumer.examples.configure
    COMMAND ${CMAKE_COMMAND} -S ${consumer_prefix}/${CMAKE_INSTALL_DATADIR}/distlops/examples
            -B ${examples_build} ${consumer_cmake_args} -DCMAKE_PREFIX_PATH=${consumer_prefix})
  add_test(NAME consumer.examples.build
    COMMAND ${CMAKE_COMMAND} --build ${examples_build} --config $<CONFIG>
            --target distributed_arrays)
  set_tests_properties(consumer.examples.configure PROPERTIES
    FIXTURES_REQUIRED consumer_installed FIXTURES_SETUP consumer_examples_configured)
  set_tests_properties(consumer.examples.build PROPERTIES
    FIXTURES_REQUIRED consumer_examples_configured)
  list(APPEND consumer_tests consumer.examples.configure consumer.examples.build)

  set_tests_properties(${consumer_tests} PROPERTIES LABELS install TIMEOUT 300)
endif()
