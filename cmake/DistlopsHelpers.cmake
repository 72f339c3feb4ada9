# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Flags for distlops' own targets (library, tests, examples, benchmarks): warnings, optional
# warnings-as-errors and sanitizers. Never applied to users' code.
#
#   distlops_project_flags(<target> [UNINSTRUMENTED] [ADDRESS_ONLY])
#
# ADDRESS_ONLY instruments the target with AddressSanitizer but not UBSan.
#
# UNINSTRUMENTED leaves the target's own code without sanitizer instrumentation (programs that
# link it still get the sanitizer runtime from their own flags): for test scaffolding that does
# not touch the library's buffers, such as Catch2's runner and pure-Eigen serial references,
# whose instrumented Debug compile costs about twice as much for nothing the sanitizers would
# report about distlops.
function(distlops_project_flags target)
  cmake_parse_arguments(ARG "UNINSTRUMENTED;ADDRESS_ONLY" "" "" ${ARGN})
  set(cxx_warnings -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wimplicit-fallthrough)
  if(DISTLOPS_WARNINGS_AS_ERRORS)
    list(APPEND cxx_warnings -Werror)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 reports std::vector's own deallocation and std::string concatenation at -O3
    # (GCC bugs 108088 and 105329): false positives.
    list(APPEND cxx_warnings -Wno-free-nonheap-object -Wno-restrict)
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${cxx_warnings} -fcx-fortran-rules>)
  if(DISTLOPS_WITH_CUDA)
    set(cuda_flags -Xcompiler=-Wall,-Wextra)
    if(DISTLOPS_WARNINGS_AS_ERRORS)
      list(APPEND cuda_flags --Werror=all-warnings -Xcompiler=-Werror)
    endif()
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${cuda_flags}>)
  endif()
  if(DISTLOPS_SANITIZE)
    # Instrumented or not, every target compiles the host kernels' dispatch alike
    # (core/detail/instruction_set.hpp): at the portable instruction set only.
    target_compile_definitions(${target} PRIVATE DISTLOPS_PORTABLE_KERNELS_ONLY)
  endif()
  if(DISTLOPS_SANITIZE AND NOT ARG_UNINSTRUMENTED)
    # Alignment checks are left out: Eigen 3.4 reads complex<float> data with 8-byte vector
    # loads at 4-byte-aligned addresses, which is valid on x86 but flagged by UBSan. So are
    # UBSan's null, object-size and vptr checks, a third of the sanitizer build's compile time
    # (38 -> 25 s of CPU for a batch of solver instances): AddressSanitizer reports the faults
    # the first two guard against (a null dereference, an access past an object), and the
    # library casts polymorphic objects down with dynamic_cast only.
    set(sanitize -fsanitize=address,undefined -fno-sanitize=alignment,null,object-size,vptr
                 -fno-sanitize-recover=all -fno-omit-frame-pointer)
    if(ARG_ADDRESS_ONLY)
      # AddressSanitizer alone: for code whose arithmetic UBSan would check at a high compile
      # cost for little (see the solver instances).
      set(sanitize -fsanitize=address -fno-omit-frame-pointer)
    endif()
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${sanitize}>)
    target_link_options(${target} PUBLIC ${sanitize})
  endif()
endfunction()
