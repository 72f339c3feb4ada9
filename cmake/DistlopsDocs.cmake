# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# The API reference: a `docs` target that runs Doxygen (docs/Doxyfile.in) over the public
# headers, with the README as main page and docs/*.md as related pages, into
# <build>/docs/html/index.html. Not part of `all`. Every undocumented public entity (outside
# detail namespaces and folders) is a warning, and any warning fails the target; so does any
# relative link or anchor of the pages that leads nowhere (scripts/doxygen_pages.py, which also
# fits the Markdown pages' links to the reference, lists each).
#
# With tests on, the ctest entry `docs` (label docs) builds the target, so that the test suite
# fails on an undocumented public entity or a broken link; without Doxygen or Python it reports
# Skipped and says why.
option(DISTLOPS_ENABLE_DOCS "The docs target (Doxygen API reference), when Doxygen is found" ON)

if(DISTLOPS_ENABLE_DOCS)
  find_package(Doxygen QUIET)
  # Any Python 3 (the standard library only): the tests' interpreter when there is one.
  set(_distlops_docs_python ${Python3_EXECUTABLE})
  if(NOT _distlops_docs_python)
    find_program(DISTLOPS_DOCS_PYTHON NAMES python3 python)
    set(_distlops_docs_python ${DISTLOPS_DOCS_PYTHON})
  endif()
  if(DOXYGEN_FOUND AND _distlops_docs_python)
    set(DISTLOPS_DOCS_OUTPUT_DIR ${PROJECT_BINARY_DIR}/docs)
    # Every public header, config.hpp (generated here) included, and the pages; quoted for
    # Doxygen, in case a path has spaces.
    set(_distlops_docs_input ${PROJECT_SOURCE_DIR}/include
        ${PROJECT_BINARY_DIR}/include/distlops/config.hpp ${PROJECT_SOURCE_DIR}/README.md
        ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_SOURCE_DIR}/docs)
    list(JOIN _distlops_docs_input "\" \"" DISTLOPS_DOCS_INPUT)
    set(DISTLOPS_DOCS_INPUT "\"${DISTLOPS_DOCS_INPUT}\"")
    # FAIL_ON_WARNINGS (Doxygen 1.9.2) lists every warning before failing; older versions can
    # only stop at the first one.
    set(DISTLOPS_DOCS_WARN_AS_ERROR YES)
    if(DOXYGEN_VERSION VERSION_GREATER_EQUAL 1.9.2)
      set(DISTLOPS_DOCS_WARN_AS_ERROR FAIL_ON_WARNINGS)
    endif()
    # The Markdown pages' filter: one command for Doxygen's shell, its paths quoted.
    set(_distlops_docs_pages ${PROJECT_SOURCE_DIR}/scripts/doxygen_pages.py)
    set(DISTLOPS_DOCS_MD_FILTER
        "\\\"${_distlops_docs_python}\\\" \\\"${_distlops_docs_pages}\\\" filter")
    configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${DISTLOPS_DOCS_OUTPUT_DIR}/Doxyfile
                   @ONLY)
    # Doxygen runs on every build of the target (a few seconds), so that a new header is never
    # missed; the old pages go first, so that none of a removed header stays. Then the pages'
    # links are checked (about a second), whether Doxygen warned or not.
    add_custom_target(docs
      COMMAND ${_distlops_docs_python} ${_distlops_docs_pages} build
              $<TARGET_FILE:Doxygen::doxygen> ${DISTLOPS_DOCS_OUTPUT_DIR}/Doxyfile
      WORKING_DIRECTORY ${DISTLOPS_DOCS_OUTPUT_DIR}
      COMMENT "Doxygen: API reference in ${DISTLOPS_DOCS_OUTPUT_DIR}/html"
      VERBATIM)
    message(STATUS "distlops: docs target ON (Doxygen ${DOXYGEN_VERSION})")
  elseif(DOXYGEN_FOUND)
    message(STATUS "distlops: no Python found, no docs target (the docs test reports Skipped)")
  else()
    message(STATUS "distlops: Doxygen not found, no docs target (the docs test reports Skipped)")
  endif()

  if(DISTLOPS_ENABLE_TESTS)
    if(TARGET docs)
      add_test(NAME docs COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --target docs)
    else()
      set(_distlops_docs_reason "docs: Doxygen was not found when this build was configured: \
install doxygen (scripts/setup.sh) and reconfigure")
      if(DOXYGEN_FOUND)
        set(_distlops_docs_reason "docs: no Python 3 was found when this build was configured \
(the reference's pages and links need it): install python3 and reconfigure")
      endif()
      add_test(NAME docs COMMAND sh -c "echo '${_distlops_docs_reason}' >&2; exit 77")
      set_tests_properties(docs PROPERTIES SKIP_RETURN_CODE 77)
    endif()
    set_tests_properties(docs PROPERTIES LABELS docs TIMEOUT 300)
  endif()
endif()
