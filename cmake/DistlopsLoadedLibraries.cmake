# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Libraries the CUDA backend opens with dlopen on first use instead of linking (cuBLAS, cuFFT):
# linked, they are loaded and initialised at the start of every process that loads
# libdistlops, whether it calls them or not.
#
#   distlops_load_on_first_use(<imported target> <source> <prefix>)
#
# gives <source> the compile definitions <prefix>_SONAME (the library's SONAME, which the
# dynamic loader searches in its paths) and <prefix>_PATH (the library the toolkit search found,
# the fallback when the loader's paths do not hold it), both as string literals. The source
# gets definitions of its own, which keeps it out of the unity batches.
function(distlops_load_on_first_use target source prefix)
  get_target_property(location ${target} IMPORTED_LOCATION)
  if(NOT location)
    get_target_property(location ${target} IMPORTED_LOCATION_RELEASE)
  endif()
  if(NOT location OR NOT EXISTS "${location}")
    message(FATAL_ERROR "distlops: no library file for ${target} (IMPORTED_LOCATION: '${location}')")
  endif()
  set(soname "")
  if(CMAKE_OBJDUMP)
    execute_process(COMMAND ${CMAKE_OBJDUMP} -p "${location}" OUTPUT_VARIABLE headers
                    ERROR_QUIET RESULT_VARIABLE status)
    if(status EQUAL 0 AND headers MATCHES "SONAME[ \t]+([^ \t\r\n]+)")
      set(soname "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(NOT soname)
    # Without objdump: the versioned file the development link points to, lib<name>.so.<major>
    # by the toolkit's convention.
    get_filename_component(real "${location}" REALPATH)
    get_filename_component(real_name "${real}" NAME)
    if(real_name MATCHES "^(.+\\.so\\.[0-9]+)")
      set(soname "${CMAKE_MATCH_1}")
    else()
      set(soname "${real_name}")
    endif()
  endif()
  # The file named by the SONAME beside the development link, which a run-time-only install
  # (without the unversioned link) still has.
  get_filename_component(directory "${location}" DIRECTORY)
  if(EXISTS "${directory}/${soname}")
    set(path "${directory}/${soname}")
  else()
    set(path "${location}")
  endif()
  set_property(SOURCE ${source} APPEND PROPERTY COMPILE_DEFINITIONS
               "${prefix}_SONAME=\"${soname}\"" "${prefix}_PATH=\"${path}\"")
  message(STATUS "distlops: ${target} loaded on first use: ${soname}, else ${path}")
endfunction()
