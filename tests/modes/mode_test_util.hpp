// Shared helpers of the single-mode tests.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "qevolve/mode.hpp"

namespace qevolve::device::testing {

inline ModeParams fluxonium(double ec, double ej, double el, double flux, int levels) {
  ModeParams p;
  p.name = "fx";
  p.type = ModeType::fluxonium;
  p.ec = ec;
  p.ej = ej;
  p.el = el;
  p.flux = flux;
  p.levels = levels;
  return p;
}

inline ModeParams transmon(double ec, double ej, double ng, int levels) {
  ModeParams p;
  p.name = "tr";
  p.type = ModeType::transmon;
  p.ec = ec;
  p.ej = ej;
  p.ng = ng;
  p.levels = levels;
  return p;
}

inline ModeParams tunable_transmon(double ec, double ej, double ng, double asymmetry, double flux,
                                   int levels) {
  ModeParams p = transmon(ec, ej, ng, levels);
  p.has_asymmetry = true;
  p.asymmetry = asymmetry;
  p.flux = flux;
  return p;
}

inline std::string describe(const ModeParams& p) {
  return std::string(p.type == ModeType::fluxonium ? "fluxonium" : "transmon") +
         " EC=" + std::to_string(p.ec) + " EJ=" + std::to_string(p.ej) +
         " EL=" + std::to_string(p.el) + " flux=" + std::to_string(p.flux) +
         " ng=" + std::to_string(p.ng) + " levels=" + std::to_string(p.levels);
}

/// Max |A - A^dag| over all entries.
inline double hermiticity_error(const CMatrix& a) { return (a - a.adjoint()).cwiseAbs().maxCoeff(); }

}  // namespace qevolve::device::testing
