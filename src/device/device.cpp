// The composite device: product-basis bookkeeping and H0 as local terms.
#include "qevolve/device.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "qevolve/names.hpp"

namespace qevolve::device {

Device::Device(std::vector<Mode> modes, std::vector<Coupling> couplings)
    : modes_(std::move(modes)), couplings_(std::move(couplings)) {
  dims_.reserve(modes_.size());
  dim_ = 1;
  for (const auto& m : modes_) {
    dims_.push_back(m.levels());
    dim_ *= m.levels();
  }
}

int Device::find(const std::string& name) const {
  for (int i = 0; i < num_modes(); ++i)
    if (modes_[static_cast<std::size_t>(i)].name() == name) return i;
  return -1;
}

CMatrix Device::coupling_matrix(const Coupling& c) const {
  const Mode& ma = modes_.at(static_cast<std::size_t>(c.a));
  const Mode& mb = modes_.at(static_cast<std::size_t>(c.b));
  const Index da = ma.levels(), db = mb.levels();
  CMatrix h = CMatrix::Zero(da * db, da * db);
  // kron(A, B) with A on the more significant index.
  auto add_kron = [&](cplx scale, const CMatrix& A, const CMatrix& B) {
    for (Index i = 0; i < da; ++i)
      for (Index j = 0; j < da; ++j) {
        if (A(i, j) == cplx{}) continue;
        h.block(i * db, j * db, db, db) += scale * A(i, j) * B;
      }
  };
  if (c.capacitive != 0.0) add_kron(c.capacitive, ma.charge, mb.charge);
  if (c.inductive != 0.0) add_kron(c.inductive, ma.flux, mb.flux);
  if (c.dipole != 0.0) {
    add_kron(c.dipole, ma.lowering.adjoint(), mb.lowering);
    add_kron(c.dipole, ma.lowering, mb.lowering.adjoint());
  }
  if (c.cross_kerr != 0.0) add_kron(c.cross_kerr, ma.number, mb.number);
  return h;
}

std::vector<LocalTerm> Device::static_terms() const {
  std::vector<LocalTerm> terms;
  terms.reserve(modes_.size() + couplings_.size());
  for (int q = 0; q < num_modes(); ++q) {
    const Mode& m = modes_[static_cast<std::size_t>(q)];
    terms.push_back({{q}, m.energies.cast<cplx>().asDiagonal().toDenseMatrix()});
  }
  for (const auto& c : couplings_) {
    // Normalise to ascending mode order: swapping the factors of a kron product is a
    // permutation of the (a, b) index pair.
    if (c.a < c.b) {
      terms.push_back({{c.a, c.b}, coupling_matrix(c)});
    } else {
      Coupling swapped = c;
      std::swap(swapped.a, swapped.b);
      terms.push_back({{swapped.a, swapped.b}, coupling_matrix(swapped)});
    }
  }
  return terms;
}

CMatrix Device::embed(const LocalTerm& term) const {
  CMatrix out = CMatrix::Zero(dim_, dim_);
  add_embedded(term, out);
  return out;
}

void Device::add_embedded(const LocalTerm& term, CMatrix& out) const {
  const Index D = dim_;
  const std::size_t k = term.modes.size();
  if (k == 0 || k > 2) throw std::invalid_argument("embed: a local term acts on one or two modes");
  if (out.rows() != D || out.cols() != D) throw std::invalid_argument("embed: wrong output size");
  // Strides of the modes in the flat index.
  std::vector<Index> stride(modes_.size());
  Index s = 1;
  for (int q = num_modes() - 1; q >= 0; --q) {
    stride[static_cast<std::size_t>(q)] = s;
    s *= dims_[static_cast<std::size_t>(q)];
  }
  const int qa = term.modes[0];
  const int qb = k == 2 ? term.modes[1] : -1;
  const Index da = dims_[static_cast<std::size_t>(qa)];
  const Index db = k == 2 ? dims_[static_cast<std::size_t>(qb)] : 1;
  const Index sa = stride[static_cast<std::size_t>(qa)];
  const Index sb = k == 2 ? stride[static_cast<std::size_t>(qb)] : 0;
  for (Index col = 0; col < D; ++col) {
    const Index ja = (col / sa) % da;
    const Index jb = k == 2 ? (col / sb) % db : 0;
    const Index base = col - ja * sa - jb * sb;
    const Index jc = ja * db + jb;
    for (Index ia = 0; ia < da; ++ia)
      for (Index ib = 0; ib < db; ++ib) {
        const cplx v = term.matrix(ia * db + ib, jc);
        if (v != cplx{}) out(base + ia * sa + ib * sb, col) += v;
      }
  }
}

CMatrix Device::dense_h0() const {
  CMatrix h = CMatrix::Zero(dim_, dim_);
  for (const auto& t : static_terms()) add_embedded(t, h);
  return h;
}

Index Device::flat_index(const std::vector<int>& levels) const {
  if (levels.size() != modes_.size()) throw std::invalid_argument("flat_index: wrong length");
  Index flat = 0;
  for (std::size_t q = 0; q < levels.size(); ++q) {
    if (levels[q] < 0 || levels[q] >= dims_[q]) throw std::out_of_range("flat_index: level");
    flat = flat * dims_[q] + levels[q];
  }
  return flat;
}

std::vector<int> Device::levels_of(Index flat) const {
  std::vector<int> levels(modes_.size());
  for (int q = num_modes() - 1; q >= 0; --q) {
    const auto d = dims_[static_cast<std::size_t>(q)];
    levels[static_cast<std::size_t>(q)] = static_cast<int>(flat % d);
    flat /= d;
  }
  return levels;
}

std::string Device::label(Index flat) const {
  std::string s;
  for (int l : levels_of(flat))
    s += l < 10 ? static_cast<char>('0' + l) : static_cast<char>('a' + (l - 10));
  return s;
}

std::vector<int> Device::qubit_modes() const {
  std::vector<int> q;
  for (int i = 0; i < num_modes(); ++i)
    if (modes_[static_cast<std::size_t>(i)].is_qubit()) q.push_back(i);
  return q;
}

std::vector<Index> Device::computational_indices() const {
  // Enumerate bit strings over the qubits (first qubit most significant); couplers and
  // resonators stay in 0.
  const auto qubits = qubit_modes();
  const Index d = Index{1} << qubits.size();
  std::vector<Index> out;
  out.reserve(static_cast<std::size_t>(d));
  std::vector<int> levels(modes_.size(), 0);
  for (Index c = 0; c < d; ++c) {
    for (std::size_t k = 0; k < qubits.size(); ++k)
      levels[static_cast<std::size_t>(qubits[k])] =
          static_cast<int>((c >> (qubits.size() - 1 - k)) & 1);
    out.push_back(flat_index(levels));
  }
  return out;
}

std::string describe_roles(const std::vector<ModeParams>& modes) {
  int qubits = 0, couplers = 0, resonators = 0;
  for (const ModeParams& m : modes) {
    if (is_qubit(m))
      ++qubits;
    else if (m.type == ModeType::resonator)
      ++resonators;
    else
      ++couplers;
  }
  auto count = [](int n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::string s = count(qubits, "qubit", "qubits");
  if (couplers > 0) s += ", " + count(couplers, "coupler", "couplers");
  if (resonators > 0) s += ", " + count(resonators, "resonator", "resonators");
  return s;
}

std::vector<std::string> mode_names(const std::vector<ModeParams>& modes) {
  std::vector<std::string> out;
  for (const ModeParams& m : modes) out.push_back(m.name);
  return out;
}

std::vector<std::string> mode_roles(const std::vector<ModeParams>& modes) {
  std::vector<std::string> out;
  for (const ModeParams& m : modes) out.emplace_back(enum_name(effective_role(m)));
  return out;
}

std::vector<ModeParams> mode_params(const Device& device) {
  std::vector<ModeParams> out;
  for (const Mode& m : device.modes()) out.push_back(m.params);
  return out;
}

Device build_device(const ResolvedDevice& resolved) {
  std::vector<Mode> modes;
  modes.reserve(resolved.modes.size());
  for (const auto& p : resolved.modes) modes.push_back(diagonalise(p));
  return Device(std::move(modes), resolved.couplings);
}

}  // namespace qevolve::device
