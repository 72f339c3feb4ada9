// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Parallel .npy input and output with MPI-IO.
//
// Geometry: a rank's block is a box of the C-order array (a slab: all of every axis but one),
// which is, in the file, runs of contiguous bytes repeated on nested levels (Region). Each
// rank's file view is that strided pattern. It is built from MPI_Type_create_hvector over
// contiguous byte blocks instead of MPI_Type_create_subarray, whose extents are C ints: counts
// and block sizes above the per-call limit (2^31 - 1, see message_chunk_bytes) are split into
// nested types (message_datatype.hpp), and the data move in rounds of at most that many bytes
// per rank and collective call, so arrays of any size work.
//
// Failures: every step that may fail on some ranks only is followed by an agreement
// (collective_check), so that every rank throws the same error and no rank waits in a
// collective the others have left.
#include "distlops/io/npy.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "../broadcast_string.hpp"
#include "../message_datatype.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/crash_point.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/instantiate.hpp"
#include "npy_internal.hpp"
#include "temporary_file.hpp"

static_assert(std::endian::native == std::endian::little,
              "distlops' .npy input and output store the host's little-endian bytes as is");

namespace distlops::io {

// Named rather than anonymous: the lambdas of the templates below capture these types, and a
// unity build of the library, which includes this file into another, would otherwise see types
// of external linkage holding ones of internal linkage (-Wsubobject-linkage).
namespace npy_file {

std::function<void(detail::WriteStage)>& write_stage_hook() {
  static std::function<void(detail::WriteStage)> hook;
  return hook;
}

void run_hook(detail::WriteStage stage) {
  if (const auto& hook = write_stage_hook()) hook(stage);
}

std::string errno_text(int code) {
  return std::generic_category().message(code);
}

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(length));
}

// Raises IoError for a failed MPI-IO call.
void check_io(int code, const std::string& where, const char* call) {
  if (code != MPI_SUCCESS) throw IoError(where + ": " + call + " failed: " + mpi_error_text(code));
}

// The number of elements or bytes that one MPI call or type constructor may take.
Index call_limit() {
  return static_cast<Index>(std::min<std::size_t>(message_chunk_bytes(), INT_MAX));
}

// ---- file geometry -----------------------------------------------------------------------

using detail::Region;
using detail::region_of;
using Datatype = distlops::detail::MessageDatatype;

// The file type of a region's view: none (plain bytes) for a region of one run.
Datatype view_type_of(const Region& region) {
  if (region.counts.empty()) return {};
  const Index limit = call_limit();
  Datatype pattern = distlops::detail::block_datatype(region.block, MPI_BYTE, 1, limit);
  for (std::size_t level = region.counts.size(); level-- > 0;) {
    pattern = distlops::detail::strided_datatype(region.counts[level], region.strides[level],
                                                 pattern.get(), limit);
  }
  pattern.commit();
  return pattern;
}

// ---- files ----------------------------------------------------------------------------------

// An MPI file opened collectively. Open and close are collective; when opening failed on some
// ranks only, every rank throws (agreed) and the ranks that did open keep their handle rather
// than enter the collective MPI_File_close alone.
class SharedFile {
 public:
  SharedFile(const Communicator& comm, const std::string& name, int mode,
             const std::string& where) {
    MPI_File file = MPI_FILE_NULL;
    const int code = MPI_File_open(comm.native(), name.c_str(), mode, MPI_INFO_NULL, &file);
    const int opened_everywhere = comm.allreduce(code == MPI_SUCCESS ? 1 : 0, ReduceOp::min);
    if (opened_everywhere == 1) {
      file_ = file;
      MPI_File_set_errhandler(file_, MPI_ERRORS_RETURN);
    }
    collective_check(comm, [&] { check_io(code, where, "MPI_File_open"); });
  }
  SharedFile(const SharedFile&) = delete;
  SharedFile& operator=(const SharedFile&) = delete;
  // Collective: on the error paths every rank unwinds through here alike.
  ~SharedFile() {
    if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
  }

  MPI_File get() const { return file_; }
  int close() { return MPI_File_close(&file_); }

  // Collective: a view of the bytes of `region` after the header.
  int set_view(Index data_offset, const Region& region, const Datatype& pattern) {
    char representation[] = "native";
    const MPI_Datatype file_type = pattern.get() != MPI_DATATYPE_NULL ? pattern.get() : MPI_BYTE;
    return MPI_File_set_view(file_, static_cast<MPI_Offset>(data_offset + region.start), MPI_BYTE,
                             file_type, representation, MPI_INFO_NULL);
  }

  // Collective: moves `bytes` bytes between `data` and the view in `rounds` collective calls of
  // at most call_limit() bytes each (every rank makes the same number of calls). Returns the
  // first failure, empty when there was none.
  std::string transfer(std::byte* data, Index bytes, Index rounds, bool writing) {
    const Index limit = call_limit();
    std::string failure;
    for (Index round = 0; round < rounds; ++round) {
      const Index offset = std::min(round * limit, bytes);
      const int count = static_cast<int>(std::min(limit, bytes - offset));
      MPI_Status status;
      const int code =
          writing ? MPI_File_write_at_all(file_, offset, data + offset, count, MPI_BYTE, &status)
                  : MPI_File_read_at_all(file_, offset, data + offset, count, MPI_BYTE, &status);
      if (!failure.empty()) continue;
      const char* call = writing ? "MPI_File_write_at_all" : "MPI_File_read_at_all";
      if (code != MPI_SUCCESS) {
        failure = std::string(call) + " failed: " + mpi_error_text(code);
        continue;
      }
      // ROMIO (MPICH's MPI-IO, and one of Open MPI's) leaves the status of a zero-byte
      // transfer unset: there is nothing to count then.
      int done = 0;
      if (count > 0 && MPI_Get_count(&status, MPI_BYTE, &done) == MPI_SUCCESS && done != count) {
        failure = std::string(call) + " moved " + std::to_string(offset + done) + " of the " +
                  std::to_string(bytes) + " bytes of this rank's block" +
                  (writing ? "" : " (the file is shorter than its header says)");
      }
    }
    return failure;
  }

 private:
  MPI_File file_ = MPI_FILE_NULL;
};

// Reads exactly `size` bytes at `offset` of `fd` into `out`; false at the end of the file.
bool read_at(int fd, std::byte* out, std::size_t size, off_t offset, const std::string& where) {
  while (size > 0) {
    const ssize_t got = ::pread(fd, out, size, offset);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw IoError(where + ": cannot read the file: " + errno_text(errno));
    }
    if (got == 0) return false;
    out += got;
    size -= static_cast<std::size_t>(got);
    offset += got;
  }
  return true;
}

// The header and the size of a .npy file, as rank 0 reads them, on every rank.
struct FileHeader {
  NpyHeader header;
  Index file_size = 0;
};

FileHeader read_file_header(const Communicator& comm, const std::string& name,
                            const std::string& where) {
  std::vector<std::byte> bytes;
  Index file_size = 0;
  collective_check(comm, [&] {
    if (comm.rank() != 0) return;
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw IoError(where + ": cannot open the file: " + errno_text(errno));
    struct Closer {
      int fd;
      ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
      throw IoError(where + ": cannot inspect the file: " + errno_text(errno));
    }
    if (S_ISDIR(info.st_mode)) throw IoError(where + ": the path is a directory");
    file_size = static_cast<Index>(info.st_size);
    // A first read that holds any header NumPy writes for these dtypes; more when needed.
    bytes.resize(static_cast<std::size_t>(std::min<Index>(file_size, 4096)));
    if (!read_at(fd, bytes.data(), bytes.size(), 0, where)) {
      throw IoError(where + ": the file shrank while being read");
    }
    try {
      const std::size_t total = npy_header_size(bytes);
      if (total > bytes.size() && static_cast<Index>(bytes.size()) < file_size) {
        const std::size_t have = bytes.size();
        bytes.resize(
            static_cast<std::size_t>(std::min<Index>(static_cast<Index>(total), file_size)));
        if (!read_at(fd, bytes.data() + have, bytes.size() - have, static_cast<off_t>(have),
                     where)) {
          throw IoError(where + ": the file shrank while being read");
        }
      }
      (void)parse_npy_header(bytes);
    } catch (const IoError& error) {
      if (std::string_view(error.what()).starts_with(where)) throw;
      throw IoError(where + ": " + error.what());
    }
  });
  comm.broadcast(&file_size, 1, 0);
  Index size = static_cast<Index>(bytes.size());
  comm.broadcast(&size, 1, 0);
  bytes.resize(static_cast<std::size_t>(size));
  comm.broadcast(bytes.data(), size, 0);
  // Every rank parses the same bytes: the same result, and rank 0 found them valid.
  return {parse_npy_header(bytes), file_size};
}

}  // namespace npy_file

using namespace npy_file;

namespace detail {

void set_write_stage_hook(std::function<void(WriteStage)> hook) {
  write_stage_hook() = std::move(hook);
}

std::string describe_call(const char* function, const std::string& name) {
  return std::string(function) + "(\"" + name + "\")";
}

void check_same_text(const Communicator& comm, const std::string& name, const char* function,
                     const char* subject) {
  Fingerprint fingerprint;
  fingerprint.add(std::string_view(name));
  collective_check(comm, fingerprint, std::string(function) + ": " + subject, [] {});
}

template <Scalar T>
void check_dtype_and_size(const NpyHeader& header, Index available, const std::string& where,
                          const char* holder) {
  if (header.dtype != npy_dtype_of<T>()) {
    throw IoError(where + ": the file holds " + npy_dtype_name(header.dtype) + " data ('" +
                  header.descr + "'), but " + scalar_name<T>() +
                  " was requested (no conversion is made)");
  }
  if (header.data_bytes() > available) {
    throw IoError(where + ": the data are shorter than the shape requires: shape " +
                  to_string(header.shape) + " of " + npy_dtype_name(header.dtype) + " needs " +
                  std::to_string(header.data_bytes()) + " bytes after the " +
                  std::to_string(header.data_offset) + "-byte header, " + holder + " has " +
                  std::to_string(available));
  }
}

void check_c_order(const NpyHeader& header, const std::string& where, const std::string& hint) {
  if (!header.fortran_order) return;
  // With at most one axis longer than 1, Fortran and C order are the same bytes.
  int long_axes = 0;
  for (Index extent : header.shape)
    long_axes += extent > 1;
  if (long_axes <= 1) return;
  throw IoError(where + ": the file holds column-major data (fortran_order True) of shape " +
                to_string(header.shape) + ", which cannot be read in parallel; " + hint);
}

void check_element_count(const NpyHeader& header, const Layout& layout, const std::string& where) {
  if (header.element_count() != layout.global_size()) {
    throw IoError(where + ": the file's shape " + to_string(header.shape) + " has " +
                  std::to_string(header.element_count()) + " elements, the layout's global shape " +
                  to_string(layout.global_shape()) + " " + std::to_string(layout.global_size()));
  }
}

Region region_of(const Layout& layout, std::size_t item_size, bool whole) {
  const Shape& shape = layout.global_shape();
  if (!extents_fit(shape, static_cast<Index>(item_size))) {
    throw InvalidArgument("npy: the shape " + to_string(shape) + " at " +
                          std::to_string(item_size) + " bytes per element spans more than " +
                          "2^63 - 1 bytes");
  }
  Region region;
  if (whole) {
    const Index total = layout.global_size() * static_cast<Index>(item_size);
    if (total > 0) region.block = total;
    return region;
  }
  const int rank = layout.rank();
  if (layout.local_size(rank) == 0) return region;
  // The rank's box, innermost axis first: extents and strides in bytes, axes of extent 1
  // dropped (their corner only moves the start) and axes contiguous in the file merged.
  std::vector<Index> counts, strides;
  Index stride = static_cast<Index>(item_size);
  for (int k = layout.ndim(); k-- > 0;) {
    const Index lower = layout.box_lower(rank, k);
    const Index extent = layout.box_upper(rank, k) - lower;
    region.start += lower * stride;
    if (extent != 1) {
      if (!counts.empty() && stride == strides.back() * counts.back()) {
        counts.back() *= extent;
      } else {
        counts.push_back(extent);
        strides.push_back(stride);
      }
    }
    stride *= shape[static_cast<std::size_t>(k)];
  }
  region.block = static_cast<Index>(item_size);
  std::size_t first = 0;
  if (!counts.empty() && strides[0] == static_cast<Index>(item_size)) {
    region.block *= counts[0];
    first = 1;
  }
  region.counts.assign(counts.rbegin(), counts.rend() - static_cast<std::ptrdiff_t>(first));
  region.strides.assign(strides.rbegin(), strides.rend() - static_cast<std::ptrdiff_t>(first));
  return region;
}

template <Scalar T>
DistributedArray<T, Host> read_region(const std::string& name, Index data_offset,
                                      const Layout& layout, const std::string& where) {
  const Communicator& comm = layout.communicator();
  const Region region = region_of(layout, sizeof(T), layout.replicated());
  DistributedArray<T, Host> array;
  Datatype pattern;
  collective_check(comm, [&] {
    array = DistributedArray<T, Host>(layout);
    pattern = view_type_of(region);
  });
  SharedFile input(comm, name, MPI_MODE_RDONLY, where);
  const int view_code = input.set_view(data_offset, region, pattern);
  const Index bytes = view_code == MPI_SUCCESS ? region.bytes() : 0;
  const Index limit = call_limit();
  const Index rounds = (comm.allreduce(region.bytes(), ReduceOp::max) + limit - 1) / limit;
  const std::string failure =
      input.transfer(reinterpret_cast<std::byte*>(array.data()), bytes, rounds, false);
  collective_check(comm, [&] {
    check_io(view_code, where, "MPI_File_set_view");
    if (!failure.empty()) throw IoError(where + ": " + failure);
  });
  const int close_code = input.close();
  collective_check(comm, [&] { check_io(close_code, where, "MPI_File_close"); });
  return array;
}

template <class T>
void fortran_to_c_order(std::span<T> values, const Shape& shape) {
  if (shape.size() < 2) return;
  const std::vector<T> fortran(values.begin(), values.end());
  // Walk the C-order positions with the multi-index, keeping the Fortran offset along.
  const std::size_t ndim = shape.size();
  Shape fortran_strides(ndim, 1);
  for (std::size_t k = 1; k < ndim; ++k)
    fortran_strides[k] = fortran_strides[k - 1] * shape[k - 1];
  Shape index(ndim, 0);
  Index source = 0;
  for (T& value : values) {
    value = fortran[static_cast<std::size_t>(source)];
    for (std::size_t k = ndim; k-- > 0;) {
      if (++index[k] < shape[k]) {
        source += fortran_strides[k];
        break;
      }
      source -= (shape[k] - 1) * fortran_strides[k];
      index[k] = 0;
    }
  }
}

}  // namespace detail

using detail::check_c_order;
using detail::check_dtype_and_size;
using detail::check_element_count;
using detail::describe_call;
using detail::read_region;
using detail::TemporaryFile;
using detail::WriteStage;

namespace {

void check_same_path(const Communicator& comm, const std::string& name, const char* function) {
  detail::check_same_text(comm, name, function);
}

// Checks of the header against T that every rank makes on the same data (same verdict).
template <Scalar T>
void check_content(const FileHeader& file, const std::string& where) {
  check_dtype_and_size<T>(file.header, file.file_size - static_cast<Index>(file.header.data_offset),
                          where);
  check_c_order(file.header, where,
                "save a C-ordered array (numpy.ascontiguousarray) or read it with read_npy_local");
}

template <Scalar T>
DistributedArray<T, Host> read_data(const FileHeader& file, const Layout& layout,
                                    const std::string& name, const std::string& where) {
  return read_region<T>(name, static_cast<Index>(file.header.data_offset), layout, where);
}

}  // namespace

template <Scalar T>
void write_npy(const std::filesystem::path& path, const DistributedArray<T, Host>& array) {
  if (array.empty()) throw InvalidArgument("write_npy: the array is empty (it has no layout)");
  const Layout& layout = array.layout();
  const Communicator& comm = layout.communicator();
  const int rank = comm.rank();
  const std::string name = path.string();
  const std::string where = describe_call("write_npy", name);
  check_same_path(comm, name, "write_npy");
  Fingerprint layouts;
  layouts.add(layout.fingerprint());
  collective_check(comm, layouts, "write_npy: the array's layout", [] {});
  const std::vector<std::byte> header = make_npy_header(npy_dtype_of<T>(), layout.global_shape());

  // Rank 0 creates the temporary file; every rank learns its name.
  TemporaryFile temporary;
  collective_check(comm, [&] {
    run_hook(WriteStage::create_temporary);
    if (rank == 0) temporary = TemporaryFile::create(path, where);
  });
  const std::string temporary_name = distlops::detail::broadcast_string(comm, temporary.name(), 0);

  {
    SharedFile output(comm, temporary_name, MPI_MODE_WRONLY, where);
    collective_check(comm, [&] { run_hook(WriteStage::open); });

    // Replicated arrays: rank 0 writes its replica, the others nothing.
    const bool writes = !layout.replicated() || rank == 0;
    // Every rank computes the region, so that its shape checks raise on every rank alike.
    Region region = region_of(layout, sizeof(T), layout.replicated());
    if (!writes) region = Region{};
    Datatype pattern;
    collective_check(comm, [&] {
      run_hook(WriteStage::write_header);
      if (rank == 0) {
        if (header.size() > static_cast<std::size_t>(INT_MAX)) {
          throw IoError(where + ": the header is too large");
        }
        MPI_Status status;
        check_io(MPI_File_write_at(output.get(), 0, header.data(), static_cast<int>(header.size()),
                                   MPI_BYTE, &status),
                 where, "MPI_File_write_at (header)");
        int done = 0;
        if (MPI_Get_count(&status, MPI_BYTE, &done) == MPI_SUCCESS &&
            done != static_cast<int>(header.size())) {
          throw IoError(where + ": wrote " + std::to_string(done) + " of the " +
                        std::to_string(header.size()) + " bytes of the header");
        }
      }
      pattern = view_type_of(region);
    });

    const int view_code = output.set_view(static_cast<Index>(header.size()), region, pattern);
    const Index bytes = view_code == MPI_SUCCESS ? region.bytes() : 0;
    const Index limit = call_limit();
    const Index rounds = (comm.allreduce(region.bytes(), ReduceOp::max) + limit - 1) / limit;
    const std::string failure = output.transfer(
        reinterpret_cast<std::byte*>(const_cast<T*>(array.data())), bytes, rounds, true);
    collective_check(comm, [&] {
      run_hook(WriteStage::write_data);
      check_io(view_code, where, "MPI_File_set_view");
      if (!failure.empty()) throw IoError(where + ": " + failure);
    });

    const int sync_code = MPI_File_sync(output.get());
    collective_check(comm, [&] {
      run_hook(WriteStage::sync);
      check_io(sync_code, where, "MPI_File_sync");
    });
    const int close_code = output.close();
    collective_check(comm, [&] {
      run_hook(WriteStage::close);
      check_io(close_code, where, "MPI_File_close");
    });
  }

  // Every rank succeeded (the close stage was agreed): rank 0 puts the file in place.
  collective_check(comm, [&] {
    if (rank != 0) return;
    run_hook(WriteStage::rename);
    distlops::detail::crash_point("npy.before_rename");
    temporary.commit(path, where);
    distlops::detail::crash_point("npy.renamed");
  });
}

NpyHeader read_npy_header(const std::filesystem::path& path, const Communicator& comm) {
  const std::string name = path.string();
  check_same_path(comm, name, "read_npy_header");
  return read_file_header(comm, name, describe_call("read_npy_header", name)).header;
}

template <Scalar T>
DistributedArray<T, Host> read_npy(const std::filesystem::path& path, const Layout& layout) {
  if (!layout.valid()) throw InvalidArgument("read_npy: the layout is empty");
  const Communicator& comm = layout.communicator();
  const std::string name = path.string();
  const std::string where = describe_call("read_npy", name);
  check_same_path(comm, name, "read_npy");
  const FileHeader file = read_file_header(comm, name, where);
  check_content<T>(file, where);
  // Any layout with as many elements: the file's elements in C order are the C-order elements
  // of the layout's global shape, so each rank's block is the same region of the data whether
  // the shapes agree or not (one collective read either way).
  Fingerprint layouts;
  layouts.add(layout.fingerprint());
  collective_check(comm, layouts, "read_npy: the layout",
                   [&] { check_element_count(file.header, layout, where); });
  return read_data<T>(file, layout, name, where);
}

template <Scalar T>
DistributedArray<T, Host> read_npy(const std::filesystem::path& path, const Communicator& comm,
                                   Partition partition, int axis) {
  const std::string name = path.string();
  const std::string where = describe_call("read_npy", name);
  check_same_path(comm, name, "read_npy");
  const FileHeader file = read_file_header(comm, name, where);
  check_content<T>(file, where);
  if (file.header.shape.empty()) {
    throw IoError(where + ": the file holds a 0-d array (shape ()), but layouts need one axis " +
                  "or more");
  }
  const Layout layout(comm, file.header.shape, partition, axis);
  return read_data<T>(file, layout, name, where);
}

#define DISTLOPS_INSTANTIATE_NPY(T)                                                            \
  template void write_npy<T>(const std::filesystem::path&, const DistributedArray<T, Host>&);  \
  template DistributedArray<T, Host> read_npy<T>(const std::filesystem::path&, const Layout&); \
  template DistributedArray<T, Host> read_npy<T>(const std::filesystem::path&,                 \
                                                 const Communicator&, Partition, int);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_NPY)
#undef DISTLOPS_INSTANTIATE_NPY

#define DISTLOPS_INSTANTIATE_NPY_DETAIL(T)                                                      \
  template void detail::check_dtype_and_size<T>(const NpyHeader&, Index, const std::string&,    \
                                                const char*);                                   \
  template DistributedArray<T, Host> detail::read_region<T>(const std::string&, Index,          \
                                                            const Layout&, const std::string&); \
  template void detail::fortran_to_c_order<T>(std::span<T>, const Shape&);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_NPY_DETAIL)
#undef DISTLOPS_INSTANTIATE_NPY_DETAIL

}  // namespace distlops::io
