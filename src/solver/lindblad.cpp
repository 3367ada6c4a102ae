#include "lindblad.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "block_evolution.hpp"
#include "qevolve/backend/local_gate.hpp"
#include "qevolve/linalg.hpp"

namespace qevolve::solver {

namespace {

CMatrix kron(const CMatrix& A, const CMatrix& B) {
  CMatrix K(A.rows() * B.rows(), A.cols() * B.cols());
  for (Index i = 0; i < A.rows(); ++i)
    for (Index j = 0; j < A.cols(); ++j) K.block(i * B.rows(), j * B.cols(), B.rows(), B.cols()) = A(i, j) * B;
  return K;
}

/// Gate matrix (row-major, split re then im) of a g x g complex matrix.
void split_row_major(const CMatrix& m, std::vector<double>& out) {
  const auto g = static_cast<std::size_t>(m.rows());
  out.resize(2 * g * g);
  for (std::size_t i = 0; i < g; ++i)
    for (std::size_t j = 0; j < g; ++j) {
      out[i * g + j] = m(static_cast<Index>(i), static_cast<Index>(j)).real();
      out[g * g + i * g + j] = m(static_cast<Index>(i), static_cast<Index>(j)).imag();
    }
}

}  // namespace

CMatrix lindblad_generator(const CMatrix& c) {
  const Index d = c.rows();
  const CMatrix I = CMatrix::Identity(d, d);
  const CMatrix cdc = c.adjoint() * c;
  return kron(c.conjugate(), c) - 0.5 * kron(I, cdc) - 0.5 * kron(cdc.transpose(), I);
}

std::vector<CMatrix> collapse_operators(const NoiseSpec& noise, int levels) {
  std::vector<CMatrix> out;
  if (noise.t1) {
    CMatrix c = CMatrix::Zero(levels, levels);
    for (int k = 1; k < levels; ++k) c(k - 1, k) = std::sqrt(static_cast<double>(k) / *noise.t1);
    out.push_back(std::move(c));
  }
  if (noise.tphi) {
    CMatrix c = CMatrix::Zero(levels, levels);
    for (int k = 0; k < levels; ++k) c(k, k) = std::sqrt(2.0 / *noise.tphi) * k;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<Dissipator> make_dissipators(const Config& config, const device::Device& device) {
  std::vector<Dissipator> out;
  for (const NoiseSpec& n : config.evolution.noise) {
    const int m = device.find(n.qubit);
    const std::string path = "evolution.noise." + n.qubit;
    if (m < 0) config.fail(path, "unknown mode `" + n.qubit + "`", "a mode name of the device");
    const int d = device.dims()[static_cast<std::size_t>(m)];
    if (d * d > backend::kMaxGateSize)
      config.fail(path,
                  "mode `" + n.qubit + "` keeps " + std::to_string(d) +
                      " levels; its dissipator would act on " + std::to_string(d * d) +
                      " (column, row) levels, more than the local kernels take (" +
                      std::to_string(backend::kMaxGateSize) + ")",
                  "at most 8 levels on a mode with noise");
    Dissipator dis;
    dis.mode = m;
    dis.generator = CMatrix::Zero(d * d, d * d);
    for (const CMatrix& c : collapse_operators(n, d)) dis.generator += lindblad_generator(c);
    out.push_back(std::move(dis));
  }
  return out;
}

CMatrix dense_liouvillian(const device::Device& device, const CMatrix& H,
                          const std::vector<Dissipator>& dissipators) {
  const Index D = H.rows();
  const CMatrix I = CMatrix::Identity(D, D);
  CMatrix L = cplx(0.0, -kTwoPi) * (kron(I, H) - kron(H.transpose(), I));
  for (const Dissipator& dis : dissipators) {
    // Recover the collapse operators' full-space action from the local generator: embed the
    // generator as a superoperator on (column digit, row digit) of mode `dis.mode`.
    const int N = device.num_modes();
    std::vector<int> dims2(device.dims());
    dims2.insert(dims2.end(), device.dims().begin(), device.dims().end());
    // Strides of the doubled register (digit 0 most significant).
    std::vector<Index> stride(static_cast<std::size_t>(2 * N), 1);
    for (int q = 2 * N - 2; q >= 0; --q) stride[static_cast<std::size_t>(q)] = stride[static_cast<std::size_t>(q) + 1] * dims2[static_cast<std::size_t>(q) + 1];
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

void evolve_density(const DensityEvolution& job, CMatrix& vecs,
                    const std::function<void(double)>& progress) {
  const device::Device& dev = *job.device;
  const int N = dev.num_modes();
  const Index D = dev.dim();
  const Index D2 = D * D;
  const Index n = vecs.cols();
  if (n == 0 || job.steps == 0) return;
  if (vecs.rows() != D2) throw std::logic_error("evolve_density: columns are not D^2 long");
  const int threads = std::max(1, job.threads);
  std::vector<int> dims2(dev.dims());
  dims2.insert(dims2.end(), dev.dims().begin(), dev.dims().end());

  // Dissipator exponentials exp(L_k frac dt), one set per distinct fraction.
  std::map<double, std::vector<std::vector<double>>> dissipate;
  for (const OpenStage& st : job.stages)
    if (st.unitary < 0 && !dissipate.count(st.frac)) {
      auto& set = dissipate[st.frac];
      for (const Dissipator& dis : *job.dissipators)
        split_row_major(linalg::expm(dis.generator * (st.frac * job.dt)), set.emplace_back());
    }

  const Index width = choose_block_width(D2, n, threads);
  const Index num_blocks = (n + width - 1) / width;
  auto unitary_geometry = [&](Index w) {
    // Per gate set, per gate: (row geometry, column geometry).
    std::vector<std::vector<std::pair<backend::GateGeometry, backend::GateGeometry>>> out;
    for (const TrotterGates* gates : job.unitary) {
      auto& set = out.emplace_back();
      for (int k = 0; k < gates->num_gates(); ++k) {
        const auto& m = gates->modes(k);
        const int a = m[0], b = m.size() == 2 ? m[1] : -1;
        set.emplace_back(backend::make_geometry(dims2.data(), 2 * N, a + N, b < 0 ? -1 : b + N, w),
                         backend::make_geometry(dims2.data(), 2 * N, a, b, w));
      }
    }
    return out;
  };
  auto dissipator_geometry = [&](Index w) {
    std::vector<backend::GateGeometry> out;
    for (const Dissipator& dis : *job.dissipators)
      out.push_back(backend::make_geometry(dims2.data(), 2 * N, dis.mode, dis.mode + N, w));
    return out;
  };
  const Index last_width = n - (num_blocks - 1) * width;
  const auto ugeo_full = unitary_geometry(width), ugeo_last = unitary_geometry(last_width);
  const auto dgeo_full = dissipator_geometry(width), dgeo_last = dissipator_geometry(last_width);

  // Gate data per step: every unitary set's gates, then their conjugates.
  std::vector<std::size_t> set_offset;
  std::size_t per_step = 0;
  for (const TrotterGates* gates : job.unitary) {
    set_offset.push_back(per_step);
    per_step += 2 * gates->step_size();
  }
  const int chunk = step_chunk(per_step * sizeof(double), job.steps);
  std::vector<double> buffer(per_step * static_cast<std::size_t>(chunk));
  if (threads > 1) linalg::park_blas_workers();

  for (int s0 = 0; s0 < job.steps; s0 += chunk) {
    const int s1 = std::min(job.steps, s0 + chunk);
    std::vector<double> coeff;
    for (int s = s0; s < s1; ++s) {
      job.coefficients(s, coeff);
      double* step = buffer.data() + per_step * static_cast<std::size_t>(s - s0);
      for (std::size_t u = 0; u < job.unitary.size(); ++u) {
        const TrotterGates& gates = *job.unitary[u];
        double* g = step + set_offset[u];
        double* conj = g + gates.step_size();
        gates.compute(coeff, g);
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
#pragma omp parallel num_threads(threads) if (threads > 1 && num_blocks > 1)
    {
      std::vector<double> re(static_cast<std::size_t>(D2 * width)), im(re.size());
#pragma omp for schedule(dynamic, 1)
      for (Index b = 0; b < num_blocks; ++b) {
        const Index c0 = b * width, w = b + 1 == num_blocks ? last_width : width;
        const auto& ugeo = b + 1 == num_blocks ? ugeo_last : ugeo_full;
        const auto& dgeo = b + 1 == num_blocks ? dgeo_last : dgeo_full;
        load_block(vecs, c0, w, re.data(), im.data());
        for (int s = s0; s < s1; ++s) {
          const double* step = buffer.data() + per_step * static_cast<std::size_t>(s - s0);
          for (const OpenStage& st : job.stages) {
            if (st.unitary < 0) {
              const auto& set = dissipate.at(st.frac);
              for (std::size_t k = 0; k < set.size(); ++k)
                backend::apply_gate(re.data(), im.data(), dgeo[k], set[k].data());
              continue;
            }
            const auto u = static_cast<std::size_t>(st.unitary);
            const TrotterGates& gates = *job.unitary[u];
            const double* g = step + set_offset[u];
            const double* conj = g + gates.step_size();
            for (int k = 0; k < gates.num_gates(); ++k) {
              const auto& [row, col] = ugeo[u][static_cast<std::size_t>(k)];
              backend::apply_gate(re.data(), im.data(), row, g + gates.offset(k));
              backend::apply_gate(re.data(), im.data(), col, conj + gates.offset(k));
            }
          }
        }
        store_block(vecs, c0, w, re.data(), im.data());
      }
    }
    if (progress) progress(static_cast<double>(s1) / job.steps);
  }
}

}  // namespace qevolve::solver
