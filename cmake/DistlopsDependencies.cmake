# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# A dependency that is missing stops the configuration with what to install (Debian and Ubuntu,
# conda-forge, a cluster's modules) and how to point CMake at a copy it did not find, instead of
# CMake's generic "Could NOT find ..." (pip install . shows this message too).
#
#   distlops_dependency_missing(<what> <Debian packages> <conda-forge packages> <how to point at it>)
function(distlops_dependency_missing what debian conda hint)
  message(FATAL_ERROR
    "distlops needs ${what}, which was not found. Install it:\n"
    "  Debian, Ubuntu:  sudo apt-get install ${debian}   (bash scripts/setup.sh installs every "
    "dependency)\n"
    "  conda:           conda install -c conda-forge ${conda}\n"
    "  a cluster:       module load <its module> (module avail lists them)\n"
    "or, where it is installed outside the default paths, ${hint}.")
endfunction()
