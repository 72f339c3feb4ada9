// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/core/detail/group_key.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace distlops::detail {

namespace {

std::mutex mutex;

// The keys handed out, by group. Never destroyed: keys stay valid for the whole process, also
// while static objects that hold them are destroyed.
std::map<std::vector<int>, int>& keys_by_group() {
  static auto* const keys = new std::map<std::vector<int>, int>();
  return *keys;
}

// The attribute that carries a communicator's key (plus one, so that no key is a null
// pointer). Duplicates do not inherit it: MPI_Comm_dup of a communicator is looked up afresh,
// and finds the same key by its group.
int key_attribute() {
  static const int attribute = [] {
    int created = MPI_KEYVAL_INVALID;
    check_mpi(
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &created, nullptr),
        "MPI_Comm_create_keyval");
    return created;
  }();
  return attribute;
}

}  // namespace

int group_key(const Communicator& comm) {
  const std::lock_guard<std::mutex> lock(mutex);
  const int attribute = key_attribute();
  void* stored = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(comm.native(), attribute, &stored, &found), "MPI_Comm_get_attr");
  if (found) return static_cast<int>(reinterpret_cast<std::intptr_t>(stored)) - 1;
  std::map<std::vector<int>, int>& keys = keys_by_group();
  const int key = keys.try_emplace(comm.world_ranks(), static_cast<int>(keys.size())).first->second;
  check_mpi(MPI_Comm_set_attr(comm.native(), attribute,
                              reinterpret_cast<void*>(static_cast<std::intptr_t>(key) + 1)),
            "MPI_Comm_set_attr");
  return key;
}

}  // namespace distlops::detail
