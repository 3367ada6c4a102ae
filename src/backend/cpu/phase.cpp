// CPU driver of the PhaseColumns functor (backend/phase.hpp).
#include "qevolve/backend/phase.hpp"

namespace qevolve::backend {

void apply_phases(const double* v, double* w, const double* lambda, double scale,
                  std::ptrdiff_t rows, std::ptrdiff_t cols) {
  const PhaseColumns<double> f{v, w, lambda, scale, rows};
  for (std::ptrdiff_t k = 0; k < cols; ++k)
    for (std::ptrdiff_t i = 0; i < rows; ++i) f(i, k);
}

}  // namespace qevolve::backend
