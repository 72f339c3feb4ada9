// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file rank_local.hpp
/// DISTLOPS_RANK_LOCAL: the storage of state that belongs to one rank's thread of control (a
/// scope open on its call stack). thread_local, so that another thread of the same rank never
/// sees it. Under SimGrid's SMPI (its mpi.h defines SMPI_H) every rank is a user-level context
/// of one thread, so a thread_local would be one variable for all the simulated ranks; there
/// it is a plain global, which SMPI privatises per rank (smpi/privatization: mmap or dlopen).

#include <mpi.h>

#if defined(SMPI_H)
#define DISTLOPS_RANK_LOCAL
#else
#define DISTLOPS_RANK_LOCAL thread_local
#endif
