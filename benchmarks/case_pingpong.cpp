// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// pingpong: rank 0 and the last rank send one message of `bytes` bytes back and forth `count`
// times per repeat (blocking sends and receives through the Communicator); the other ranks
// wait at the barriers. The time per message (half a round trip) at 8 bytes is the latency of
// a point-to-point message, its rate at a few MB the bandwidth: the two numbers of the
// latency-bandwidth model of docs/benchmarks.md ("Scaling beyond this machine"), measured here
// over shared memory or TCP, and, under SimGrid's SMPI, a check of the simulated platform
// (rank 0 and the last rank sit on different nodes). Runs when --cases names it.
#include <cstdint>
#include <memory>

#include "cases.hpp"

namespace distlops::bench {

Case pingpong_case() {
  return {"pingpong",
          "rank 0 and the last rank send a message of `bytes` bytes back and forth `count` times",
          [](const Communicator& comm, const Parameters& p) {
            const Index bytes = p.integer("bytes", 8);
            const Index count = p.integer("count", 1000);
            if (bytes < 0 || count < 1)
              throw InvalidArgument("pingpong: bytes must be >= 0 and count >= 1");
            const int last = comm.size() - 1;
            const bool playing = comm.size() > 1 && (comm.rank() == 0 || comm.rank() == last);
            // The message carries byte i = i mod 251 and is checked after the repeats.
            auto buffer = std::make_shared<std::vector<unsigned char>>(
                playing ? static_cast<std::size_t>(bytes) : 0);
            for (std::size_t i = 0; i < buffer->size(); ++i)
              (*buffer)[i] = static_cast<unsigned char>(i % 251);
            Run run;
            run.body = [=] {
              if (!playing) return;
              unsigned char* data = buffer->data();
              for (Index k = 0; k < count; ++k) {
                if (comm.rank() == 0) {
                  comm.send(data, bytes, last, 11);
                  comm.recv(data, bytes, last, 11);
                } else {
                  comm.recv(data, bytes, 0, 11);
                  comm.send(data, bytes, 0, 11);
                }
              }
            };
            run.units = 2 * count;
            run.unit_name = "message";
            run.bytes_per_unit = double(bytes);
            run.checks = [=] {
              double mismatches = 0;
              for (std::size_t i = 0; i < buffer->size(); ++i)
                mismatches += (*buffer)[i] != static_cast<unsigned char>(i % 251) ? 1 : 0;
              return std::vector<Check>{
                  {"mismatched_bytes", comm.allreduce(mismatches, ReduceOp::sum)},
                  {"players", comm.size() > 1 ? 2.0 : 0.0}};
            };
            run.verify = [](const std::vector<Check>& checks) {
              std::vector<std::string> failures;
              const double mismatched = check_value(checks, "mismatched_bytes");
              if (mismatched != 0)
                failures.push_back(std::to_string(mismatched) + " bytes came back changed");
              return failures;
            };
            run.default_repeats = 5;
            return run;
          },
          true};
}

}  // namespace distlops::bench
