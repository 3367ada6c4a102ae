// `qevolve bench scaling`: time the standard workload over a range of qubit counts and compare
// the achieved floating-point rate with the zgemm peak measured in the same run.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <string>

#include "qevolve/commands.hpp"
#include "qevolve/error.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/workloads.hpp"

extern "C" void openblas_set_num_threads(int);  // OpenBLAS extension (cblas.h)

namespace qevolve::commands {
namespace {

using Clock = std::chrono::steady_clock;

/// Best of three 1024 x 1024 complex matrix products (Eigen -> OpenBLAS zgemm), GFLOP/s.
double measure_zgemm_peak(int threads) {
  openblas_set_num_threads(threads);
  const Index n = 1024;
  const CMatrix a = CMatrix::Random(n, n), b = CMatrix::Random(n, n);
  CMatrix c(n, n);
  double best = 1e300;
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = Clock::now();
    c.noalias() = a * b;
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  if (std::abs(c(0, 0)) < 0.0) std::puts("");  // keep the product observable
  return 8.0 * static_cast<double>(n * n * n) / best / 1e9;
}

double physical_memory_bytes() {
  return static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
}

struct Row {
  int qubits = 0;
  Index dim = 0, columns = 0;
  int steps = 0, threads = 0, gates = 0;
  double seconds = 0.0, rate = 0.0, gflops = 0.0, peak = 0.0;
};

}  // namespace

int bench_scaling(const BenchScalingOptions& options, Streams io) {
  if (!options.plot.empty() && options.csv.empty())  // before the runs, not after them
    throw InputError({}, "--plot", "the plot is drawn from the CSV file", "--csv FILE as well");
  for (int r : options.ranks)
    if (r != 1)
      throw InputError({}, "--ranks",
                       "rank counts other than 1 need the MPI communicator, which this version "
                       "does not have",
                       "--ranks 1");
  std::vector<int> thread_counts = options.threads;
  if (thread_counts.empty()) thread_counts.push_back(solver::resolve_threads(0));

  std::vector<Row> rows;
  char line[256];
  io.out << "standard workload: mpc_fluxonium_1d chain, 2 levels, simultaneous X (cos 50 ns), "
            "all computational columns, trotter order 2, splitting "
         << (options.splitting == Splitting::bonds ? "bonds" : "terms") << "\n";
  std::vector<double> peaks;
  for (int t : thread_counts) {
    peaks.push_back(measure_zgemm_peak(t));
    std::snprintf(line, sizeof line, "zgemm peak (n = 1024, %d thread%s): %.1f GFLOP/s\n", t,
                  t == 1 ? "" : "s", peaks.back());
    io.out << line;
  }
  std::snprintf(line, sizeof line, "%3s %7s %7s %6s %4s %5s %10s %14s %9s %7s\n", "N", "D",
                "columns", "steps", "thr", "gates", "time [s]", "col*steps/s", "GFLOP/s",
                "% peak");
  io.out << line;
  openblas_set_num_threads(1);

  for (int n = options.min_qubits; n <= options.max_qubits; ++n) {
    const double D = std::ldexp(1.0, n);
    // psi0, the evolved state and the result: three D x D complex matrices.
    const double bytes = 3.0 * D * D * 16.0;
    if (bytes > 0.7 * physical_memory_bytes()) {
      std::snprintf(line, sizeof line, "%3d  skipped: needs %.1f GB of memory\n", n, bytes / 1e9);
      io.out << line;
      continue;
    }
    for (std::size_t k = 0; k < thread_counts.size(); ++k) {
      const int threads = thread_counts[k];
      const Config config = standard_workload(n, options.steps, options.splitting);
      solver::Simulator sim(config, device::build_device(config), threads);
      const auto t0 = Clock::now();
      const auto result = sim.evolve();
      Row r;
      r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      r.qubits = n;
      r.dim = sim.device().dim();
      r.columns = result.columns.cols();
      r.steps = options.steps;
      r.threads = threads;
      r.gates = sim.gates_per_step();
      r.rate = static_cast<double>(r.columns) * r.steps / r.seconds;
      r.gflops = sim.flops_per_column_step() * r.rate / 1e9;
      r.peak = peaks[k];
      rows.push_back(r);
      std::snprintf(line, sizeof line, "%3d %7lld %7lld %6d %4d %5d %10.3f %14.4g %9.2f %6.1f%%\n",
                    n, static_cast<long long>(r.dim), static_cast<long long>(r.columns), r.steps,
                    r.threads, r.gates, r.seconds, r.rate, r.gflops, 100.0 * r.gflops / r.peak);
      io.out << line << std::flush;
    }
  }

  if (!options.csv.empty()) {
    std::ofstream f(options.csv);
    if (!f) throw InputError({}, "--csv", "cannot write " + options.csv);
    f << "qubits,dim,columns,steps,threads,gates_per_step,seconds,column_steps_per_s,gflops,"
         "zgemm_peak_gflops\n";
    for (const auto& r : rows)
      f << r.qubits << ',' << r.dim << ',' << r.columns << ',' << r.steps << ',' << r.threads
        << ',' << r.gates << ',' << r.seconds << ',' << r.rate << ',' << r.gflops << ','
        << r.peak << '\n';
    io.out << "wrote " << options.csv << "\n";
  }
  if (!options.plot.empty()) {
    const std::string cmd = std::string("/usr/bin/python3 '") + QEVOLVE_SCRIPTS_DIR +
                            "/plot_scaling.py' '" + options.csv + "' '" + options.plot + "'";
    if (std::system(cmd.c_str()) != 0)
      throw Error("could not draw " + options.plot + " (needs /usr/bin/python3 with matplotlib)");
    io.out << "wrote " << options.plot << "\n";
  }
  return 0;
}

}  // namespace qevolve::commands
