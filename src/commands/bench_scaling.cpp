// `qevolve bench scaling`: time the standard workload over a range of qubit counts and compare
// the achieved floating-point rate with the zgemm peak measured in the same run.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <vector>
#include <ostream>
#include <string>

#include "qevolve/plan.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/comm.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/device.hpp"
#include "qevolve/fidelity.hpp"
#include "qevolve/names.hpp"
#include "qevolve/output_path.hpp"
#include "qevolve/error.hpp"
#include "qevolve/simulator.hpp"
#include "qevolve/workloads.hpp"
#include "progress.hpp"
#include "python_script.hpp"
#include "run_output.hpp"

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

struct ScalingRow {
  int qubits = 0;
  Index dim = 0, columns = 0;
  int steps = 0, ranks = 1, threads = 0, gates = 0;
  double seconds = 0.0, rate = 0.0, gflops = 0.0, peak = 0.0;
  double speedup = 1.0, efficiency = 1.0;  ///< vs the 1-rank, 1-thread row of the same N (if run)
  /// Distributed rows: payload bytes rank 0 put into collectives for one vz compensation
  /// objective evaluation (one all-reduce of the partial sums) and for one whole fidelity
  /// evaluation (checks, uncompensated sums, the compensation solve with its restarts).
  double bytes_objective = 0.0, bytes_fidelity = 0.0;
};

constexpr const char* kCsvHeader =
    "qubits,dim,columns,steps,ranks,threads,gates_per_step,seconds,column_steps_per_s,gflops,zgemm_peak_gflops,"
    "speedup,efficiency,bytes_per_objective,bytes_per_fidelity\n";

void write_row(std::ostream& f, const ScalingRow& r) {
  f << r.qubits << ',' << r.dim << ',' << r.columns << ',' << r.steps << ',' << r.ranks << ',' << r.threads << ','
    << r.gates << ',' << r.seconds << ',' << r.rate << ',' << r.gflops << ',' << r.peak << ',' << r.speedup << ','
    << r.efficiency << ',' << r.bytes_objective << ',' << r.bytes_fidelity << '\n';
}

ScalingRow read_row(const std::string& line) {
  std::vector<double> v;
  std::size_t at = 0;
  while (at <= line.size()) {
    const std::size_t end = std::min(line.find(',', at), line.size());
    v.push_back(std::stod(line.substr(at, end - at)));
    at = end + 1;
  }
  if (v.size() != 15) throw Error("bench scaling: malformed worker row: " + line);
  ScalingRow r;
  r.qubits = static_cast<int>(v[0]);
  r.dim = static_cast<Index>(v[1]);
  r.columns = static_cast<Index>(v[2]);
  r.steps = static_cast<int>(v[3]);
  r.ranks = static_cast<int>(v[4]);
  r.threads = static_cast<int>(v[5]);
  r.gates = static_cast<int>(v[6]);
  r.seconds = v[7];
  r.rate = v[8];
  r.gflops = v[9];
  r.peak = v[10];
  r.bytes_objective = v[13];
  r.bytes_fidelity = v[14];
  return r;
}

/// One rank of a distributed run (started by the --ranks parent through mpirun): every rank
/// evolves its shard between two barriers; the time is the slowest rank's. Then one vz
/// fidelity evaluation measures the bytes communicated. Rank 0 appends the row to `path`.
int bench_worker(const BenchScalingOptions& options, int threads) {
  comm::Communicator& comm = comm::world();
  const int n = options.min_qubits;
  const Config config = standard_workload(n, options.steps, options.splitting);
  solver::Simulator sim(io::evolution_plan(config), threads);
  const comm::Shard shard = comm.shard(static_cast<Index>(sim.states().initial_indices().size()));
  comm.barrier();
  const auto t0 = Clock::now();
  const auto result = sim.evolve(shard);
  comm.barrier();
  ScalingRow r;
  r.seconds = comm.allreduce_max(std::chrono::duration<double>(Clock::now() - t0).count());
  const CMatrix target = io::objective_spec(config, sim)->target;  // evaluated with vz below
  comm.reset_bytes();
  {
    fidelity::DistributedObjective obj(Compensation::vz, target, result.columns, shard.first, comm);
    obj.set_angles(RVector::Zero(2 * n));
    (void)obj.sums();
  }
  r.bytes_objective = static_cast<double>(comm.bytes_sent());
  comm.reset_bytes();
  (void)fidelity::evaluate_fidelity(result.columns, shard.first, target, Compensation::vz, comm);
  r.bytes_fidelity = static_cast<double>(comm.bytes_sent());
  if (!comm.is_root()) return 0;
  r.qubits = n;
  r.dim = sim.device().dim();
  r.columns = static_cast<Index>(sim.states().initial_indices().size());
  r.steps = options.steps;
  r.ranks = comm.size();
  r.threads = threads;
  r.gates = sim.work().gates_per_step;
  r.rate = static_cast<double>(r.columns) * r.steps / r.seconds;
  r.gflops = sim.work().flops_per_column_step * r.rate / 1e9;
  std::ofstream f(options.worker_row, std::ios::app);
  write_row(f, r);
  return f ? 0 : 1;
}

/// Starts `mpirun -n ranks` of this executable as bench workers for one (N, threads) and reads
/// back the row rank 0 wrote.
ScalingRow run_distributed(const BenchScalingOptions& options, int n, int ranks, int threads) {
  if (!comm::mpi_available() || std::string(QEVOLVE_MPIEXEC).empty())
    throw InputError({}, "--ranks", "rank counts other than 1 need MPI, which this qevolve was built without",
                     "--ranks 1, or rebuild with libopenmpi-dev installed");
  char exe[4096];
  const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) throw Error("bench scaling: cannot find this executable (/proc/self/exe)");
  exe[len] = '\0';
  char tmpl[] = "/tmp/qevolve-bench-XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd < 0) throw Error("bench scaling: cannot create a temporary file");
  close(fd);
  const std::string row_file = tmpl;
  // OpenMPI refuses to start as root unless told; more ranks than cores need oversubscription.
  std::string env = "OMPI_MCA_rmaps_base_oversubscribe=1 ";
  if (geteuid() == 0) env += "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ";
  const std::string cmd = env + QEVOLVE_MPIEXEC + " -n " + std::to_string(ranks) + " '" + exe +
                          "' bench scaling --quiet --qubits " + std::to_string(n) + ":" + std::to_string(n) +
                          " --steps " + std::to_string(options.steps) + " --splitting " +
                          enum_name(options.splitting) + " --threads " +
                          std::to_string(threads) + " --worker-row '" + row_file + "'";
  const int status = std::system(cmd.c_str());
  std::ifstream f(row_file);
  std::string line;
  std::getline(f, line);
  std::remove(row_file.c_str());
  if (status != 0 || line.empty())
    throw Error("bench scaling: the " + std::to_string(ranks) + "-rank run failed (" + cmd + ")");
  return read_row(line);
}

}  // namespace

namespace {

/// One row on one process: the standard workload of n qubits evolved once.
ScalingRow run_serial(const BenchScalingOptions& options, int n, int threads) {
  ScalingRow r;
  const Config config = standard_workload(n, options.steps, options.splitting);
  solver::Simulator sim(io::evolution_plan(config), threads);
  const auto t0 = Clock::now();
  const auto result = sim.evolve();
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.qubits = n;
  r.dim = sim.device().dim();
  r.columns = result.columns.cols();
  r.steps = options.steps;
  r.threads = threads;
  r.gates = sim.work().gates_per_step;
  r.rate = static_cast<double>(r.columns) * r.steps / r.seconds;
  r.gflops = sim.work().flops_per_column_step * r.rate / 1e9;
  return r;
}

/// The table's line of a row.
void print_row(std::ostream& out, int n, const ScalingRow& r) {
  char line[256];
  // Without a 1-rank, 1-thread row of this N there is no speedup to show: "-".
  char speedup[32] = "-", efficiency[32] = "-";
  if (!std::isnan(r.speedup)) {
    std::snprintf(speedup, sizeof speedup, "%.3f", r.speedup);
    std::snprintf(efficiency, sizeof efficiency, "%.3f", r.efficiency);
  }
  std::snprintf(line, sizeof line, "%3d %7lld %7lld %6d %5d %4d %5d %10.4g %14.4g %9.2f %6.1f%% %8s %6s\n", n,
                static_cast<long long>(r.dim), static_cast<long long>(r.columns), r.steps, r.ranks, r.threads,
                r.gates, r.seconds, r.rate, r.gflops, 100.0 * r.gflops / (r.peak * r.ranks), speedup,
                efficiency);
  out << line << std::flush;
}

}  // namespace

int bench_scaling(const BenchScalingOptions& options, Streams io) {
  if (!options.plot.empty() && options.csv.empty())  // before the runs, not after them
    throw InputError({}, "--plot", "the plot is drawn from the CSV file", "--csv FILE as well");
  const io::Replacing table{"plot", options.force};  // a table or picture replaces no HDF5 file
  if (!options.csv.empty()) io::check_flag_output("--csv", options.csv, "", table);
  if (!options.plot.empty()) io::check_flag_output("--plot", options.plot, "", table);
  std::vector<int> thread_counts = options.threads;
  if (thread_counts.empty()) thread_counts.push_back(solver::resolve_threads(0));
  if (!options.worker_row.empty()) return bench_worker(options, thread_counts.front());
  for (int r : options.ranks)
    if (r < 1) throw InputError({}, "--ranks", "rank counts must be positive", "e.g. --ranks 1,2");

  std::vector<ScalingRow> rows;
  char line[256];
  io.out << "standard workload: mpc_fluxonium_1d chain, 2 levels, simultaneous X (cos 50 ns), "
            "all computational columns, trotter order 2, splitting "
         << enum_name(options.splitting) << "\n";
  std::vector<double> peaks;
  for (int t : thread_counts) {
    peaks.push_back(measure_zgemm_peak(t));
    std::snprintf(line, sizeof line, "zgemm peak (n = 1024, %d thread%s): %.1f GFLOP/s\n", t,
                  t == 1 ? "" : "s", peaks.back());
    io.out << line;
  }
  std::snprintf(line, sizeof line, "%3s %7s %7s %6s %5s %4s %5s %10s %14s %9s %7s %8s %6s\n", "N", "D",
                "columns", "steps", "ranks", "thr", "gates", "time [s]", "col*steps/s", "GFLOP/s", "% peak",
                "speedup", "eff");
  io.out << line;
  openblas_set_num_threads(1);
  const int per_n = static_cast<int>(options.ranks.size() * thread_counts.size());
  RowProgress progress(io.err, !io.quiet, (options.max_qubits - options.min_qubits + 1) * per_n);

  for (int n = options.min_qubits; n <= options.max_qubits; ++n) {
    const double D = std::ldexp(1.0, n);
    // psi0, the evolved state and the result: three D x D complex matrices.
    const double bytes = 3.0 * D * D * 16.0;
    if (bytes > 0.7 * physical_memory_bytes()) {
      std::snprintf(line, sizeof line, "%3d  skipped: needs %.1f GB of memory\n", n, bytes / 1e9);
      io.out << line;
      continue;
    }
    double base = 0.0;  // the 1-rank, 1-thread time of this N, once measured
    for (int ranks : options.ranks)
      for (std::size_t k = 0; k < thread_counts.size(); ++k) {
        const int threads = thread_counts[k];
        ScalingRow r = ranks == 1 ? run_serial(options, n, threads) : run_distributed(options, n, ranks, threads);
        r.peak = peaks[k];
        if (ranks == 1 && threads == 1) base = r.seconds;
        r.speedup = base > 0.0 ? base / r.seconds : std::numeric_limits<double>::quiet_NaN();
        r.efficiency = r.speedup / (ranks * threads);
        rows.push_back(r);
        print_row(io.out, n, r);
        // The next row: another rank or thread count of this N (about this row's time), or
        // N + 1, which doubles the columns and D (about 4.4x the first row of this N).
        const bool last_of_n = rows.size() % static_cast<std::size_t>(per_n) == 0;
        progress.row_done(last_of_n ? 4.4 * rows[rows.size() - static_cast<std::size_t>(per_n)].seconds : r.seconds);
        if (r.ranks > 1) {
          std::snprintf(line, sizeof line,
                        "    communicated by rank 0: %.0f bytes per vz objective evaluation, %.0f bytes per "
                        "fidelity evaluation (compensation solve)\n",
                        r.bytes_objective, r.bytes_fidelity);
          io.out << line;
        }
      }
  }

  if (!options.csv.empty()) {
    std::ofstream f(options.csv);
    if (!f) throw InputError({}, "--csv", "cannot write " + options.csv);
    f << kCsvHeader;
    for (const auto& r : rows) write_row(f, r);
    io.out << "wrote " << options.csv << "\n";
  }
  if (!options.plot.empty()) {
    run_python_script("plot_scaling.py", {options.csv, options.plot});
    io.out << "wrote " << options.plot << "\n";
  }
  return 0;
}

}  // namespace qevolve::commands
