# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# ---- the installed package, as a project outside the tree uses it -------------------------------
# A chain of fixtures: consumer.install installs this build into the build tree (after removing
# what an earlier run installed), consumer.configure and consumer.build build tests/consumer
# against it with find_package(distlops), and consumer.run runs it on 2 ranks. Running
# consumer.run alone (ctest -R consumer.run) runs the whole chain.
option(DISTLOPS_TEST_INSTALL "Test the installed package with a consumer project" ON)
if(DISTLOPS_TEST_INSTALL)
  set(consumer_dir ${PROJECT_BINARY_DIR}/consumer)
  set(consumer_binary ${consumer_dir}/build/consumer)
  if(CMAKE_CONFIGURATION_TYPES)
    set(consumer_binary ${consumer_dir}/build/$<CONFIG>/consumer)
  endif()
  add_test(NAME consumer.clean
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${consumer_dir})
  add_test(NAME consumer.install
    COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR} --prefix ${consumer_dir}/install
            --config $<CONFIG>)
  add_test(NAME consumer.configure
    COMMAND ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR}/tests/consumer -B ${consumer_dir}/build
            -G ${CMAKE_GENERATOR} -DCMAKE_BUILD_TYPE=$<CONFIG>
            -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
            -DCMAKE_PREFIX_PATH=${consumer_dir}/install)
  add_test(NAME consumer.build
    COMMAND ${CMAKE_COMMAND} --build ${consumer_dir}/build --config $<CONFIG>)
  add_test(NAME consumer.run
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${DISTLOPS_MPIEXEC_FLAGS}
            ${consumer_binary} 2)
  set_tests_properties(consumer.clean PROPERTIES FIXTURES_SETUP consumer_clean)
  set_tests_properties(consumer.install PROPERTIES
    FIXTURES_REQUIRED consumer_clean FIXTURES_SETUP consumer_installed)
  set_tests_properties(consumer.configure PROPERTIES
    FIXTURES_REQUIRED consumer_installed FIXTURES_SETUP consumer_configured)
  set_tests_properties(consumer.build PROPERTIES
    FIXTURES_REQUIRED consumer_configured FIXTURES_SETUP consumer_built)
  set_tests_properties(consumer.run PROPERTIES
    FIXTURES_REQUIRED consumer_built PROCESSORS 2 ENVIRONMENT "${DISTLOPS_TEST_ENVIRONMENT}")
  set_tests_properties(consumer.clean consumer.install consumer.configure consumer.build
    consumer.run PROPERTIES LABELS install TIMEOUT 300)
endif()
