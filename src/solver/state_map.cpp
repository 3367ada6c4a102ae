// The states of a run (include/qevolve/state_map.hpp): the initial states, the columns and
// density matrices the evolution starts from, and the open-system channel block on them; the
// output map itself is in output_map.cpp.
#include <stdexcept>
#include <string>

#include "qevolve/state_map.hpp"

namespace qevolve::solver {
namespace {

/// A shard must lie inside the n items it is cut from.
void check_shard(const comm::Shard& shard, Index n) {
  if (shard.first < 0 || shard.count < 0 || shard.first + shard.count > n)
    throw std::invalid_argument("Simulator: shard [" + std::to_string(shard.first) + ", " +
                                std::to_string(shard.first + shard.count) + ") outside the " + std::to_string(n) +
                                " initial states or inputs");
}

}  // namespace

StateMap::StateMap(const device::Device& device, const std::optional<device::DressedBasis>& dressed,
                   const Options& options, std::vector<Index> initial)
    : device_(&device),
      dressed_(&dressed),
      basis_(options.basis),
      frame_(options.frame),
      duration_(options.duration),
      initial_(std::move(initial)) {}

std::vector<std::string> StateMap::initial_labels() const {
  std::vector<std::string> out;
  out.reserve(initial_.size());
  for (Index i : initial_) out.push_back(device_->label(i));
  return out;
}

bool StateMap::initial_states_are_computational() const {
  return initial_ == device_->computational_indices();
}

comm::Shard StateMap::all_initial() const { return {0, static_cast<Index>(initial_.size())}; }

comm::Shard StateMap::all_inputs() const {
  const auto n = static_cast<Index>(initial_.size());
  return {0, n * n};
}

CMatrix StateMap::initial_columns() const { return initial_columns(all_initial()); }

CMatrix StateMap::initial_columns(const comm::Shard& shard) const {
  const Index D = device_->dim();
  check_shard(shard, static_cast<Index>(initial_.size()));
  CMatrix psi0 = CMatrix::Zero(D, shard.count);
  for (Index c = 0; c < shard.count; ++c) {
    const Index i = initial_[static_cast<std::size_t>(shard.first + c)];
    if (basis_ == Basis::dressed)
      psi0.col(c) = (*dressed_)->transform.col(i);
    else
      psi0(i, c) = 1.0;
  }
  return psi0;
}

CMatrix StateMap::initial_density() const { return initial_density(all_inputs()); }

CMatrix StateMap::initial_density(const comm::Shard& shard) const {
  const Index D = device_->dim();
  const CMatrix v = initial_columns();
  const Index n = v.cols();
  check_shard(shard, n * n);
  CMatrix vecs(D * D, shard.count);
  for (Index k = 0; k < shard.count; ++k) {
    const Index i = (shard.first + k) % n, j = (shard.first + k) / n;  // input i + n j
    const CMatrix rho = v.col(i) * v.col(j).adjoint();
    vecs.col(k) = Eigen::Map<const CVector>(rho.data(), D * D);  // column stacking
  }
  return vecs;
}

CMatrix StateMap::channel_from(const CMatrix& vecs) const {
  const Index D = device_->dim();
  const auto n = static_cast<Index>(initial_.size());
  CMatrix S(n * n, vecs.cols());
  for (Index k = 0; k < vecs.cols(); ++k) {
    const Eigen::Map<const CMatrix> rho(vecs.col(k).data(), D, D);
    // T rho T^dag with T the output map (dressed transform, rotating-frame phases).
    const CMatrix left = to_output(rho);
    const CMatrix out = to_output(left.adjoint()).adjoint();
    for (Index b = 0; b < n; ++b)
      for (Index a = 0; a < n; ++a)
        S(a + n * b, k) = out(initial_[static_cast<std::size_t>(a)], initial_[static_cast<std::size_t>(b)]);
  }
  return S;
}

CMatrix StateMap::channel_adjoint(const CMatrix& lambda_s) const {
  const Index D = device_->dim();
  const auto n = static_cast<Index>(initial_.size());
  CMatrix out(D * D, lambda_s.cols());
  for (Index k = 0; k < lambda_s.cols(); ++k) {
    CMatrix L = CMatrix::Zero(D, D);
    for (Index b = 0; b < n; ++b)
      for (Index a = 0; a < n; ++a)
        L(initial_[static_cast<std::size_t>(a)], initial_[static_cast<std::size_t>(b)]) = lambda_s(a + n * b, k);
    // T^dag L T = (T^dag (T^dag L)^dag)^dag.
    const CMatrix left = output_adjoint(L);
    const CMatrix rho = output_adjoint(left.adjoint()).adjoint();
    out.col(k) = Eigen::Map<const CVector>(rho.data(), D * D);
  }
  return out;
}

}  // namespace qevolve::solver
