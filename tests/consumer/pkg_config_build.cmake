# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Builds the consumer program with nothing but a compiler and pkg-config, as a Makefile would:
#   c++ -std=c++20 main.cpp $(pkg-config [--static] --cflags --libs distlops)
# Run as cmake -DPKG_CONFIG=... -DPC_DIR=<dir of distlops.pc> -DCXX=... -DSOURCE=...
#   -DOUTPUT=... -DSTATIC=ON|OFF -P pkg_config_build.cmake
# A shared libdistlops is found at run time through an rpath to the .pc file's libdir.
foreach(variable PKG_CONFIG PC_DIR CXX SOURCE OUTPUT STATIC)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "pkg_config_build.cmake: -D${variable}=... is missing")
  endif()
endforeach()

set(ENV{PKG_CONFIG_PATH} "${PC_DIR}")
set(static_flag)
if(STATIC)
  set(static_flag --static)
endif()
execute_process(COMMAND ${PKG_CONFIG} ${static_flag} --cflags --libs distlops
                OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pkg-config ${static_flag} --cflags --libs distlops failed (PKG_CONFIG_PATH=${PC_DIR})")
endif()
execute_process(COMMAND ${PKG_CONFIG} --variable=libdir distlops
                OUTPUT_VARIABLE libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(flags UNIX_COMMAND "${flags}")
set(command ${CXX} -std=c++20 -Wall -Wextra -Werror ${SOURCE} -o ${OUTPUT} ${flags})
if(NOT STATIC)
  list(APPEND command -Wl,-rpath,${libdir})
endif()
get_filename_component(output_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${output_dir}")
list(JOIN command " " shown)
message(STATUS "${shown}")
execute_process(COMMAND ${command} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the consumer did not build with pkg-config's flags (exit status ${status})")
endif()
