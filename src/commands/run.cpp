// `qevolve run`: config -> device -> cached simulator -> evolve -> fidelity -> (gradient) ->
// HDF5 + summary. With trainable parameters the gradient layer evaluates (forward + adjoint)
// and /gradient, /gradient_names are written.
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "progress.hpp"
#include "rank_device.hpp"
#include "qevolve/resolve.hpp"
#include "qevolve/comm.hpp"
#include "qevolve/commands.hpp"
#include "qevolve/config_loader.hpp"
#include "qevolve/device.hpp"
#include "qevolve/gradient.hpp"
#include "qevolve/linalg.hpp"
#include "run_output.hpp"

namespace qevolve::commands {

int run(const RunOptions& options, Streams io) {
  const auto t_start = Clock::now();
  // Under mpirun every rank runs this; the initial states are sharded over the ranks, only
  // rank 0 shows progress, writes and prints (docs/distributed.md).
  comm::Communicator& comm = comm::world();
  const bool root = comm.is_root();
  const bool show = root && io.progress && !io.quiet;
  Config config = io::load_config(options.config_path);
  linalg::set_blas_threads(options.threads);  // --threads bounds BLAS too (no spinning workers)
  if (options.steps) config.evolution.steps = *options.steps;
  (void)io::resolve(config, io::Purpose::evolve);  // every input error before any work
  bind_rank_device(comm::world(), config);  // one GPU per rank (CUDA builds)
  // Ranks on GPUs reduce through NCCL (docs/distributed.md); the output gather stays on MPI.
  const auto nccl = comm::gpu_reductions(comm, config.evolution.device == ComputeDevice::cuda);
  comm::Communicator& reduce = nccl ? *nccl : comm;
  RunReport report;
  report.config = &config;
  report.ranks = comm.size();
  std::unique_ptr<solver::Simulator> sim;
  std::unique_ptr<gradient::GradientProblem> problem;
  if (gradient::has_trainable(config)) {
    problem = std::make_unique<gradient::GradientProblem>(config, options.threads, reduce);
    report.sim = &problem->simulator();
    report.t_build = since(t_start);
    take_evaluation(report, problem->evaluate(true), problem->names());
    if (root) {  // the gathered columns (the evaluation's reductions were collective)
      comm::SerialCommunicator here;
      check_norms(report.columns, report.sim->options(), here);
    }
  } else {
    device::Device dev = io::build_device(config);
    sim = std::make_unique<solver::Simulator>(config, std::move(dev), options.threads);
    report.sim = sim.get();
    report.t_build = since(t_start);
    const auto t1 = Clock::now();
    CMatrix local;
    comm::Shard shard;
    if (sim->is_open()) {
      const auto n = static_cast<Index>(sim->initial_indices().size());
      shard = comm.shard(n * n);
      ProgressBar bar(io.err, show, "evolving (Lindblad)");
      local = sim->evolve_channel(shard, [&bar](double f) { bar.update(f); }).superoperator;
      report.superoperator = comm.gather_columns(local, n * n, 0);
    } else {
      shard = comm.shard(static_cast<Index>(sim->initial_indices().size()));
      solver::EvolveResult evolved;
      {
        ProgressBar bar(io.err, show, "evolving");
        evolved = sim->evolve(shard, [&bar](double f) { bar.update(f); });
      }
      check_norms(evolved.columns, sim->options(), comm);
      local = std::move(evolved.columns);
      report.columns = comm.gather_columns(local, sim->device().dim(), 0);
      report.single_precision_deviation = evolved.single_precision_deviation;
    }
    report.t_evolve = since(t1);
    const auto t2 = Clock::now();
    compute_fidelity(report, local, shard, reduce);
    report.t_fidelity = since(t2);
  }
  report.bytes_communicated = comm.bytes_sent() + (nccl ? nccl->bytes_sent() : 0);
  if (!root) return 0;

  const auto t3 = Clock::now();
  const std::string output = options.output.empty() ? config.output.file : options.output;
  bool energies_skipped = false;
  if (!output.empty()) energies_skipped = write_run_output(output, report, since(t_start));
  const double t_out = since(t3);

  print_summary(io.out, report, "qevolve run: " + options.config_path, t_out, since(t_start));
  if (!output.empty()) {
    io.out << "wrote " << output << "\n";
    if (energies_skipped && !io.quiet)
      io.err << "qevolve: warning: /energies not written: D = " << report.sim->device().dim()
             << " is too large for a dense diagonalisation\n";
  }
  return 0;
}

}  // namespace qevolve::commands
