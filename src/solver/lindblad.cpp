#include "lindblad.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "block_evolution.hpp"
#include "density_plan.hpp"
#include "device_select.hpp"
#include "split_gate.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/backend/parallel.hpp"
#include "qevolve/linalg.hpp"
#include "qevolve/checkpoints.hpp"

namespace qevolve::solver {

CMatrix lindblad_generator(const CMatrix& c) {
  const Index d = c.rows();
  const CMatrix I = CMatrix::Identity(d, d);
  const CMatrix cdc = c.adjoint() * c;
  return linalg::kron(c.conjugate(), c) - 0.5 * linalg::kron(I, cdc) - 0.5 * linalg::kron(cdc.transpose(), I);
}

CMatrix t1_operator(int levels) {
  CMatrix c = CMatrix::Zero(levels, levels);
  for (int k = 1; k < levels; ++k) c(k - 1, k) = std::sqrt(static_cast<double>(k));
  return c;
}

CMatrix tphi_operator(int levels) {
  CMatrix c = CMatrix::Zero(levels, levels);
  for (int k = 0; k < levels; ++k) c(k, k) = k;
  return c;
}

std::vector<CMatrix> collapse_operators(const NoiseSpec& noise, int levels) {
  std::vector<CMatrix> out;
  if (noise.t1) out.push_back(std::sqrt(1.0 / *noise.t1) * t1_operator(levels));
  if (noise.tphi) out.push_back(std::sqrt(2.0 / *noise.tphi) * tphi_operator(levels));
  return out;
}

int checkpoint_interval(int steps) { return sizes::checkpoint_interval(steps); }

DissipatorSet make_dissipators(const std::vector<NoiseSpec>& noise, const std::vector<CollapseSpec>& collapse,
                               const device::Device& device) {
  DissipatorSet out;
  auto dissipator_of = [&](int mode, const std::string& path) -> Dissipator& {
    for (auto& d : out.dissipators)
      if (d.mode == mode) return d;
    const int d = device.dims()[static_cast<std::size_t>(mode)];
    precondition(d * d <= backend::kMaxGateSize, "make_dissipators", path, "a dissipator larger than the local kernels take");
    out.dissipators.push_back({mode, CMatrix::Zero(d * d, d * d)});
    return out.dissipators.back();
  };
  for (const NoiseSpec& n : noise) {
    const int m = device.find(n.qubit);
    const std::string path = "evolution.noise." + n.qubit;
    precondition(m >= 0, "make_dissipators", path, "an unknown mode");
    Dissipator& dis = dissipator_of(m, path);
    for (const CMatrix& c : collapse_operators(n, device.dims()[static_cast<std::size_t>(m)]))
      dis.generator += lindblad_generator(c);
    out.noise_index.push_back(static_cast<int>(&dis - out.dissipators.data()));
  }
  for (const CollapseSpec& cs : collapse) {
    const int m = device.find(cs.qubit);
    precondition(m >= 0, "make_dissipators", cs.path + ".qubit", "an unknown mode");
    const device::Mode& mode = device.modes()[static_cast<std::size_t>(m)];
    const int d = device.dims()[static_cast<std::size_t>(m)];
    CMatrix O;
    if (cs.op == "matrix") {
      precondition(static_cast<int>(cs.matrix.size()) == d, "make_dissipators", cs.path + ".matrix", "a matrix of another size");
      O.resize(d, d);
      for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j) O(i, j) = cs.matrix[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    } else {
      const CMatrix* op = mode.op(cs.op);
      precondition(op != nullptr, "make_dissipators", cs.path + ".operator", "an operator the mode does not have");
      O = *op;
    }
    dissipator_of(m, cs.path).generator += lindblad_generator(std::sqrt(cs.rate) * O);
  }
  return out;
}

CMatrix dense_dissipator(const device::Device& device, const std::vector<Dissipator>& dissipators) {
  const Index D = device.dim();
  const int N = device.num_modes();
  CMatrix L = CMatrix::Zero(D * D, D * D);
  // Strides of the doubled register (digit 0 most significant; digits N.. repeat the modes).
  std::vector<Index> stride(static_cast<std::size_t>(2 * N), 1);
  for (int q = 2 * N - 2; q >= 0; --q)
    stride[static_cast<std::size_t>(q)] =
        stride[static_cast<std::size_t>(q) + 1] * device.dims()[static_cast<std::size_t>((q + 1) % N)];
  for (const Dissipator& dis : dissipators) {
    // The local generator on (column digit, row digit) of mode `dis.mode`, embedded.
    const int d = device.dims()[static_cast<std::size_t>(dis.mode)];
    const Index sc = stride[static_cast<std::size_t>(dis.mode)], sr = stride[static_cast<std::size_t>(dis.mode + N)];
    for (Index x = 0; x < D * D; ++x) {
      const Index jc = (x / sc) % d, ir = (x / sr) % d;
      const Index base = x - jc * sc - ir * sr;
      for (Index jc2 = 0; jc2 < d; ++jc2)
        for (Index ir2 = 0; ir2 < d; ++ir2) {
          const cplx v = dis.generator(jc * d + ir, jc2 * d + ir2);
          if (v != cplx(0.0, 0.0)) L(x, base + jc2 * sc + ir2 * sr) += v;
        }
    }
  }
  return L;
}

CMatrix dense_liouvillian(const CMatrix& H, const CMatrix& dissipator) {
  const Index D = H.rows();
  const CMatrix I = CMatrix::Identity(D, D);
  return cplx(0.0, -kTwoPi) * (linalg::kron(I, H) - linalg::kron(H.transpose(), I)) + dissipator;
}

std::vector<OpenStage> open_step_stages(int order, std::vector<double>& unitary_fracs,
                                        std::vector<int>& unitary_orders) {
  unitary_fracs.clear();
  unitary_orders.clear();
  if (order == 1) {
    unitary_fracs = {1.0};
    unitary_orders = {1};
    return {{0, 1.0}, {-1, 1.0}};
  }
  if (order == 2) {
    unitary_fracs = {1.0};
    unitary_orders = {2};
    return {{-1, 0.5}, {0, 1.0}, {-1, 0.5}};
  }
  const double p = 1.0 / (2.0 - std::cbrt(2.0));
  unitary_fracs = {p, 1.0 - 2.0 * p};
  unitary_orders = {2, 2};
  return {{-1, 0.5 * p}, {0, p}, {-1, 0.5 * (1.0 - p)}, {1, 1.0 - 2.0 * p},
          {-1, 0.5 * (1.0 - p)}, {0, p}, {-1, 0.5 * p}};
}

DensityPlan::DensityPlan(const DensityEvolution& job, Index n) : job_(&job) {
  const device::Device& dev = *job.device;
  const int N = dev.num_modes();
  const Index D2 = dev.dim() * dev.dim();
  std::vector<int> dims2(dev.dims());
  dims2.insert(dims2.end(), dev.dims().begin(), dev.dims().end());
  width_ = choose_block_width(D2, n, std::max(1, job.threads));
  num_blocks_ = (n + width_ - 1) / width_;
  last_width_ = n - (num_blocks_ - 1) * width_;

  // Dissipator exponentials and their inverses, one set per distinct fraction.
  for (const OpenStage& st : job.stages)
    if (st.unitary < 0 && std::find(fracs_.begin(), fracs_.end(), st.frac) == fracs_.end()) {
      fracs_.push_back(st.frac);
      auto& set = diss_.emplace_back();
      auto& inv = diss_inv_.emplace_back();
      for (const Dissipator& dis : *job.dissipators) {
        to_split(linalg::expm(dis.generator * (st.frac * job.dt)), set.emplace_back());
        to_split(linalg::expm(dis.generator * (-st.frac * job.dt)), inv.emplace_back());
      }
    }
  for (std::size_t i = 0; i < job.stages.size(); ++i) {
    const OpenStage& st = job.stages[i];
    if (st.unitary < 0) {
      const auto f = static_cast<int>(std::find(fracs_.begin(), fracs_.end(), st.frac) - fracs_.begin());
      for (std::size_t k = 0; k < job.dissipators->size(); ++k)
        apps_.push_back({DensityApp::Kind::dissipator, -1, static_cast<int>(k), static_cast<int>(i), f});
      continue;
    }
    const TrotterGates& gates = *job.unitary[static_cast<std::size_t>(st.unitary)];
    for (int k = 0; k < gates.num_gates(); ++k) {
      apps_.push_back({DensityApp::Kind::row, st.unitary, k, static_cast<int>(i), 0});
      apps_.push_back({DensityApp::Kind::column, st.unitary, k, static_cast<int>(i), 0});
    }
  }
  auto geometries = [&](Index w) {
    std::vector<backend::GateGeometry> geo;
    for (const DensityApp& a : apps_) {
      if (a.kind == DensityApp::Kind::dissipator) {
        const int m = (*job.dissipators)[static_cast<std::size_t>(a.gate)].mode;
        geo.push_back(backend::make_geometry(dims2.data(), 2 * N, m, m + N, w));
        continue;
      }
      const auto& modes = job.unitary[static_cast<std::size_t>(a.set)]->modes(a.gate);
      const int x = modes[0], y = modes.size() == 2 ? modes[1] : -1;
      const int shift = a.kind == DensityApp::Kind::row ? N : 0;  // row digits are N..2N-1
      geo.push_back(backend::make_geometry(dims2.data(), 2 * N, x + shift, y < 0 ? -1 : y + shift, w));
    }
    return geo;
  };
  geo_full_ = geometries(width_);
  geo_last_ = geometries(last_width_);
  for (const TrotterGates* gates : job.unitary) {
    set_offset_.push_back(per_step_);
    per_step_ += 2 * gates->step_size();
  }
  for (const auto& set : diss_)
    for (const auto& m : set) static_size_ += m.size();
}

void DensityPlan::compute_step(const std::vector<double>& c, double* step) const {
  for (std::size_t u = 0; u < job_->unitary.size(); ++u) {
    const TrotterGates& gates = *job_->unitary[u];
    double* g = step + set_offset_[u];
    double* conj = g + gates.step_size();
    gates.compute(c, g);
    // conj(G): the same real parts, negated imaginary parts (each gate is re then im).
    for (int k = 0; k < gates.num_gates(); ++k) {
      const std::size_t off = gates.offset(k), gg = static_cast<std::size_t>(gates.size(k) * gates.size(k));
      for (std::size_t i = 0; i < gg; ++i) {
        conj[off + i] = g[off + i];
        conj[off + gg + i] = -g[off + gg + i];
      }
    }
  }
}

const double* DensityPlan::matrix(const DensityApp& a, const double* step) const {
  if (a.kind == DensityApp::Kind::dissipator)
    return diss_[static_cast<std::size_t>(a.frac_index)][static_cast<std::size_t>(a.gate)].data();
  const TrotterGates& gates = *job_->unitary[static_cast<std::size_t>(a.set)];
  const double* g = step + set_offset_[static_cast<std::size_t>(a.set)];
  if (a.kind == DensityApp::Kind::column) g += gates.step_size();
  return g + gates.offset(a.gate);
}

int DensityPlan::size(const DensityApp& a) const {
  if (a.kind == DensityApp::Kind::dissipator) {
    const auto& gen = (*job_->dissipators)[static_cast<std::size_t>(a.gate)].generator;
    return static_cast<int>(gen.rows());
  }
  return job_->unitary[static_cast<std::size_t>(a.set)]->size(a.gate);
}

backend::GateSchedule DensityPlan::schedule() const {
  const device::Device& dev = *job_->device;
  const int N = dev.num_modes();
  backend::GateSchedule s;
  s.dims = dev.dims();
  s.dims.insert(s.dims.end(), dev.dims().begin(), dev.dims().end());
  std::vector<std::size_t> diss_offset;  // [frac * dissipators + k] in the static tail
  std::size_t tail = per_step_;
  for (const auto& set : diss_)
    for (const auto& m : set) {
      diss_offset.push_back(tail);
      tail += m.size();
    }
  const std::size_t num_diss = job_->dissipators->size();
  for (const DensityApp& a : apps_) {
    backend::GateSchedule::Gate g;
    if (a.kind == DensityApp::Kind::dissipator) {
      g.mode_a = (*job_->dissipators)[static_cast<std::size_t>(a.gate)].mode;
      g.mode_b = g.mode_a + N;
      g.fixed = true;  // the same exponential in every step
      g.offset = diss_offset[static_cast<std::size_t>(a.frac_index) * num_diss + static_cast<std::size_t>(a.gate)];
    } else {
      const TrotterGates& gates = *job_->unitary[static_cast<std::size_t>(a.set)];
      const auto& modes = gates.modes(a.gate);
      const int shift = a.kind == DensityApp::Kind::row ? N : 0;  // row digits are N..2N-1
      g.mode_a = modes[0] + shift;
      g.mode_b = modes.size() == 2 ? modes[1] + shift : -1;
      g.offset = set_offset_[static_cast<std::size_t>(a.set)] +
                 (a.kind == DensityApp::Kind::column ? gates.step_size() : 0) + gates.offset(a.gate);
    }
    s.gates.push_back(g);
  }
  s.step_size = tail;
  s.steps = job_->steps;
  return s;
}

void DensityPlan::fill_static(double* buffer, int slots) const {
  const std::size_t size = schedule_step_size();
  for (int k = 0; k < slots; ++k) {
    double* out = buffer + size * static_cast<std::size_t>(k) + per_step_;
    for (const auto& set : diss_)
      for (const auto& m : set) out = std::copy(m.begin(), m.end(), out);
  }
}

double DensityPlan::step_flops(Index amplitudes) const {
  double flops = 0.0;  // a g x g gate: g complex multiply-adds (8 flops) per amplitude
  for (const DensityApp& a : apps_) flops += 8.0 * static_cast<double>(amplitudes) * size(a);
  return flops;
}

const double* DensityPlan::dissipator_inverse(const DensityApp& a) const {
  return diss_inv_[static_cast<std::size_t>(a.frac_index)][static_cast<std::size_t>(a.gate)].data();
}

void evolve_density(const DensityEvolution& job, CMatrix& vecs,
                    const std::function<void(double)>& progress) {
  const Index n = vecs.cols();
  if (n == 0 || job.steps == 0) return;
  const Index D2 = job.device->dim() * job.device->dim();
  if (vecs.rows() != D2) throw std::logic_error("evolve_density: columns are not D^2 long");
  const DensityPlan plan(job, n);
  const backend::GateSchedule schedule = plan.schedule();
  const std::size_t step_size = schedule.step_size;
  const int chunk = step_chunk(step_size * sizeof(double), job.steps);
  std::vector<double> buffer(step_size * static_cast<std::size_t>(chunk));
  plan.fill_static(buffer.data(), chunk);
  const int threads = std::max(1, job.threads);
  if (backend::worth_threads(threads, plan.step_flops(D2 * n) * std::min(chunk, job.steps), plan.num_blocks()))
    linalg::park_blas_workers();
  // The open step on the backend's gate executor (the doubled register is one more state).
  const auto executor = make_gate_executor<double>(job.compute_device, schedule, n, plan.width(), threads, chunk);
  ObservePoints points(job.observer, job.observe_at);
  if (points.due(0)) points.call(0, vecs);
  if (job.observer && job.block_observer) {  // the boundaries inside the executor, per block
    backend::BlockObserver<double> o{{}, job.block_observer};
    for (int s : job.observe_at)
      if (s > 0) o.at.push_back(s);
    if (executor->observe_blocks(std::move(o))) points = ObservePoints({}, {});
  }
  executor->upload(vecs);
  std::vector<double> coeff;
  for (int s0 = 0, s1 = 0; s0 < job.steps; s0 = s1) {
    s1 = points.clip(s0, std::min(job.steps, s0 + chunk));
    for (int s = s0; s < s1; ++s) {
      job.coefficients(s, coeff);
      plan.compute_step(coeff, buffer.data() + step_size * static_cast<std::size_t>(s - s0));
    }
    executor->apply(buffer.data(), s0, s1);
    if (progress) progress(static_cast<double>(s1) / job.steps);
    if (s1 < job.steps && points.due(s1)) {
      executor->download(vecs);
      points.call(s1, vecs);
      executor->upload(vecs);
    }
  }
  executor->download(vecs);
  if (points.due(job.steps)) points.call(job.steps, vecs);
}

DensitySteps::DensitySteps(const DensityEvolution& job, const DensityPlan& plan, Index columns, int max_steps)
    : job_(job), plan_(plan), columns_(columns) {
  const backend::GateSchedule schedule = plan.schedule();
  step_size_ = schedule.step_size;
  chunk_ = step_chunk(step_size_ * sizeof(double), std::max(1, max_steps));
  buffer_.resize(step_size_ * static_cast<std::size_t>(chunk_));
  plan.fill_static(buffer_.data(), chunk_);
  const int threads = std::max(1, job.threads);
  const Index D2 = job.device->dim() * job.device->dim();
  if (backend::worth_threads(threads, plan.step_flops(D2 * columns) * chunk_, plan.num_blocks()))
    linalg::park_blas_workers();
  executor_ = make_gate_executor<double>(job.compute_device, schedule, columns, plan.width(), threads, chunk_);
}

DensitySteps::~DensitySteps() = default;

void DensitySteps::run(CMatrix& vecs, int s_begin, int s_end, std::vector<CMatrix>* store) {
  const Index D2 = job_.device->dim() * job_.device->dim();
  if (columns_ == 0 || s_end <= s_begin) return;
  if (vecs.rows() != D2 || vecs.cols() != columns_) throw std::logic_error("DensitySteps: columns are not D^2 long");
  const int len = s_end - s_begin;
  backend::BlockObserver<double> o;
  if (store) {
    store->resize(static_cast<std::size_t>(len));
    for (CMatrix& m : *store) m.resize(D2, columns_);
    (*store)[0] = vecs;
    for (int s = s_begin + 1; s < s_end; ++s) o.at.push_back(s);
    o.call = [store, s_begin](int b, Index c0, Index w, const double* re, const double* im) {
      store_block((*store)[static_cast<std::size_t>(b - s_begin)], c0, w, re, im);
    };
  }
  const bool observed = executor_->observe_blocks(std::move(o)) || store == nullptr;
  executor_->upload(vecs);
  std::vector<double> coeff;
  for (int s0 = s_begin, s1 = s_begin; s0 < s_end; s0 = s1) {
    s1 = observed ? std::min(s_end, s0 + chunk_) : s0 + 1;
    for (int s = s0; s < s1; ++s) {
      job_.coefficients(s, coeff);
      plan_.compute_step(coeff, buffer_.data() + step_size_ * static_cast<std::size_t>(s - s0));
    }
    executor_->apply(buffer_.data(), s0, s1);
    if (!observed && s1 < s_end) {
      executor_->download(vecs);
      (*store)[static_cast<std::size_t>(s1 - s_begin)] = vecs;
      executor_->upload(vecs);
    }
  }
  executor_->download(vecs);
}

}  // namespace qevolve::solver
