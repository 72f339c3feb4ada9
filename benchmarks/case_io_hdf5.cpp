// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// io-hdf5: write_hdf5 then read_hdf5 of a float64 array of n elements (default 2^29, 4 GiB)
// split along axis 0, in the directory `dir` (default: the working directory). Least bytes per
// repeat: the array written once and read once, 2 * 8 n. The bound is the disk, not memory:
// before the repeats rank 0 measures the directory's sequential write and read bandwidth with
// dd (direct I/O, blocks of 64 MiB, a file of `dd_mib` MiB, default the array's size), and the
// case reports both as check values next to its own rate. The read of the case comes from
// the page cache when the file fits in memory, so its rate may exceed dd's direct read.
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cases.hpp"
#include "distlops/core/random.hpp"
#include "distlops/io/hdf5.hpp"

namespace distlops::bench {

namespace {

/// dd's "copied, S s, R unit/s": the bytes per second of a dd command (0 when it failed).
double dd_bytes_per_second(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return 0;
  std::string output;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr)
    output += buffer;
  if (::pclose(pipe) != 0) return 0;
  // "... 4294967296 bytes (4.3 GB, 4.0 GiB) copied, 9.1 s, 472 MB/s"
  const auto bytes_end = output.rfind(" bytes");
  const auto copied = output.rfind("copied, ");
  if (bytes_end == std::string::npos || copied == std::string::npos) return 0;
  const auto bytes_start = output.rfind('\n', bytes_end);
  const double bytes =
      std::stod(output.substr(bytes_start == std::string::npos ? 0 : bytes_start + 1, bytes_end));
  const double seconds = std::stod(output.substr(copied + 8));
  return seconds > 0 ? bytes / seconds : 0;
}

}  // namespace

Case io_hdf5_case() {
  return {"io-hdf5", "write_hdf5 + read_hdf5 of n float64, bound: the disk's dd bandwidth",
          [](const Communicator& comm, const Parameters& p) {
            const Index n = p.integer("n", Index(1) << 29);
            const std::string dir = p.text("dir", ".");
            const Index dd_mib = p.integer("dd_mib", std::max<Index>(1, n * 8 >> 20));
            const std::string path = (std::filesystem::path(dir) / "distlops-io-hdf5.h5").string();
            const Layout layout(comm, {n});
            auto x = std::make_shared<DistributedArray<double>>(layout);
            auto y = std::make_shared<DistributedArray<double>>(layout);
            fill_random(*x, 61);
            double dd[2] = {0, 0};
            if (comm.rank() == 0) {
              const std::string file = (std::filesystem::path(dir) / "distlops-io-dd.tmp").string();
              dd[0] = dd_bytes_per_second(
                  "dd if=/dev/zero of=" + file +
                  " bs=64M oflag=direct conv=fsync count=" + std::to_string((dd_mib + 63) / 64));
              dd[1] = dd_bytes_per_second("dd if=" + file + " of=/dev/null bs=64M iflag=direct");
              std::filesystem::remove(file);
            }
            comm.broadcast(dd, 2, 0);
            Run run;
            run.body = [=] {
              io::write_hdf5(path, *x);
              *y = io::read_hdf5<double>(path, layout);
            };
            run.units = 1;
            run.unit_name = "write+read";
            run.bytes_per_unit = 2.0 * sizeof(double) * double(n);
            run.checks = [=] {
              DistributedArray<double> difference(layout);
              difference.copy_from(*y);
              difference.axpy(-1.0, *x);
              const double max_difference =
                  double(difference.norm(std::numeric_limits<double>::infinity()));
              if (comm.rank() == 0) std::filesystem::remove(path);
              return std::vector<Check>{{"max_abs_difference", max_difference},
                                        {"dd_write_MBps", dd[0] / 1e6},
                                        {"dd_read_MBps", dd[1] / 1e6}};
            };
            // What is read back is what was written, bit for bit.
            run.verify = [](const std::vector<Check>& checks) -> std::vector<std::string> {
              if (check_value(checks, "max_abs_difference") == 0) return {};
              return {"the array read back differs from the one written"};
            };
            run.default_repeats = 3;
            return run;
          }};
}

}  // namespace distlops::bench
