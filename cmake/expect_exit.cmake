# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Runs a command and checks its exit status and its output (stdout and stderr together): the
# test of a mistake's message and status.
#
#   cmake -DSTATUS=<n> -DMESSAGE=<regex> [-DFORBID=<regex>] [-DSKIP_WHEN_UNAVAILABLE=ON]
#         -P expect_exit.cmake -- <command> [<argument>...]
#
# MESSAGE must match the output exactly once (a message printed by every rank fails), FORBID
# must not match it (work that a check before the work should have prevented). With
# SKIP_WHEN_UNAVAILABLE a command that exits with 77 prints "expect_exit: skipped: ", which the
# test's SKIP_REGULAR_EXPRESSION reports as Skipped.
set(command "")
set(after_separator OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(index RANGE 1 ${last})
  if(after_separator)
    # A semicolon inside an argument stays in it.
    string(REPLACE ";" "\\;" argument "${CMAKE_ARGV${index}}")
    list(APPEND command "${argument}")
  elseif(CMAKE_ARGV${index} STREQUAL "--")
    set(after_separator ON)
  endif()
endforeach()
if(NOT command OR NOT DEFINED STATUS OR NOT DEFINED MESSAGE)
  message(FATAL_ERROR "usage: cmake -DSTATUS=n -DMESSAGE=regex -P expect_exit.cmake -- command...")
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE output
                ERROR_VARIABLE output)
message("${output}")
if(SKIP_WHEN_UNAVAILABLE AND status STREQUAL "77" AND NOT STATUS STREQUAL "77")
  message(FATAL_ERROR "expect_exit: skipped: the command exited with 77, it cannot run here")
endif()
set(failures "")
if(NOT status STREQUAL "${STATUS}")
  string(APPEND failures "exit status ${status}, expected ${STATUS}\n")
endif()
# Matches are counted as a list's elements: a semicolon in the output would split one.
string(REPLACE ";" "," searched "${output}")
string(REGEX MATCHALL "${MESSAGE}" matches "${searched}")
list(LENGTH matches count)
if(NOT count EQUAL 1)
  string(APPEND failures "'${MESSAGE}' found ${count} times in the output, expected once\n")
endif()
if(DEFINED FORBID AND searched MATCHES "${FORBID}")
  string(APPEND failures "'${FORBID}' found in the output\n")
endif()
if(failures)
  message(FATAL_ERROR "expect_exit: ${failures}")
endif()
message("expect_exit: exit status ${status} and the message, as expected")
