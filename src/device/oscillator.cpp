// Oscillators (docs/models.md "Resonator and Duffing oscillator"), in the Fock basis |0> .. |levels-1>:
//   resonator  H = f (a^dag a + 1/2)                  E_k = f (k + 1/2)
//   duffing    H = f a^dag a + (alpha/2) a^dag a^dag a a   E_k = f k + (alpha/2) k (k - 1)
// H is diagonal in the Fock basis and <k-1|a|k> = sqrt(k), so truncating the Fock space at
// `levels` is exact for every kept matrix element: the internal basis is the kept one.
#include <cmath>
#include <string>

#include "mode_internal.hpp"
#include "qevolve/error.hpp"
#include "qevolve/mode.hpp"

namespace qevolve::device {

Mode diagonalise_oscillator(const ModeParams& p) {
  const bool duffing = p.type == ModeType::duffing;
  if (!duffing && p.type != ModeType::resonator) detail::fail(p, "not an oscillator");
  detail::require_finite(p, "frequency", p.frequency);
  if (duffing) detail::require_finite(p, "anharmonicity", p.anharmonicity);
  if (p.levels < 1) detail::fail(p, "levels must be at least 1");
  if (p.basis_size > 0 && p.basis_size < p.levels) {
    detail::fail(p, "levels (" + std::to_string(p.levels) + ") exceed basis_size (" +
                        std::to_string(p.basis_size) + ")");
  }
  const int d = p.levels;
  Mode mode;
  mode.params = p;
  mode.internal_dim = d;
  mode.energies.resize(d);
  for (int k = 0; k < d; ++k) {
    mode.energies(k) = duffing ? p.frequency * k + 0.5 * p.anharmonicity * k * (k - 1)
                               : p.frequency * (k + 0.5);
  }
  // The kept levels must be the Fock states in ascending order (the lowest `levels`
  // eigenstates, docs/models.md "Resonator and Duffing oscillator"): E_k - E_{k-1} = f + alpha (k - 1) > 0 for every kept k.
  for (int k = 1; k < d; ++k) {
    if (!(mode.energies(k) > mode.energies(k - 1))) {
      detail::fail(p, duffing ? "E_" + std::to_string(k) + " <= E_" + std::to_string(k - 1) +
                                    ": frequency + anharmonicity * (k - 1) must stay positive "
                                    "for every kept level (fewer levels or a smaller |anharmonicity|)"
                              : std::string("frequency must be positive"));
    }
  }
  detail::fill_ladder_operators(mode);
  const CMatrix& a = mode.lowering;
  mode.flux = a + a.adjoint();                      // x = a + a^dag
  mode.charge = cplx(0.0, 1.0) * (a.adjoint() - a);  // y = i (a^dag - a)
  return mode;
}

}  // namespace qevolve::device
