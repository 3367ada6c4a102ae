// The schemes' table (include/qevolve/scheme_traits.hpp): every solver and splitting has a row,
// and what the rows answer (the messages' lists, the time orders, the memory labels, what only
// the CPU runs) is what the loader, the estimates and the device choice said before the table.
#include <gtest/gtest.h>

#include <string>

#include "qevolve/names.hpp"
#include "qevolve/scheme_traits.hpp"

namespace qevolve {
namespace {

using solver::SchemeTraits;

TEST(SchemeTraits, EverySolverAndSplittingHasARowOfThatSolver) {
  for (const EnumRow<Solver>& s : enum_table<Solver>())
    for (const EnumRow<Splitting>& p : enum_table<Splitting>()) {
      const SchemeTraits& t = solver::scheme_traits(s.value, p.value);
      EXPECT_EQ(t.solver, s.value) << s.name << " " << p.name;
      EXPECT_NE(t.time_order, nullptr);
      EXPECT_NE(t.memory, nullptr);
      EXPECT_NE(t.summary, nullptr);
      EXPECT_NE(t.make, nullptr);
      EXPECT_EQ(t.steps, t.time_order(2) > 0) << s.name << " " << p.name;
    }
}

TEST(SchemeTraits, MessagesListTheSolversThatHaveTheTrait) {
  EXPECT_EQ(solver::solvers_with(&SchemeTraits::adjoint), "expm, trotter or magnus4");
  EXPECT_EQ(solver::solvers_with(&SchemeTraits::steps), "expm, trotter or magnus4");
  EXPECT_EQ(solver::solvers_with(&SchemeTraits::open_adjoint), "trotter");
  EXPECT_FALSE(solver::solver_has(Solver::magnus4, &SchemeTraits::open_systems));
  EXPECT_TRUE(solver::solver_has(Solver::trotter, &SchemeTraits::open_systems));
  EXPECT_FALSE(solver::scheme_traits(Solver::trotter, Splitting::chebyshev).open_systems);
}

TEST(SchemeTraits, TimeOrders) {
  const auto order = [](Solver s, Splitting p, int o) { return solver::scheme_traits(s, p).time_order(o); };
  EXPECT_EQ(order(Solver::trotter, Splitting::terms, 1), 1);
  EXPECT_EQ(order(Solver::trotter, Splitting::bonds, 4), 2);
  EXPECT_EQ(order(Solver::trotter, Splitting::chebyshev, 2), 2);
  EXPECT_EQ(order(Solver::magnus4, Splitting::dense, 4), 4);
  EXPECT_EQ(order(Solver::expm, Splitting::terms, 2), 2);
  EXPECT_EQ(order(Solver::adaptive, Splitting::terms, 2), 0);
}

TEST(SchemeTraits, MemoryLabelsAndTerms) {
  EXPECT_STREQ(solver::scheme_traits(Solver::expm, Splitting::dense).label, "");
  EXPECT_STREQ(solver::scheme_traits(Solver::trotter, Splitting::dense).label, " (dense)");
  EXPECT_STREQ(solver::scheme_traits(Solver::magnus4, Splitting::chebyshev).label, " (chebyshev)");
  const solver::SchemeMemoryInput in{10.0, 320.0, 2.0, false};
  EXPECT_TRUE(solver::scheme_traits(Solver::trotter, Splitting::terms).memory(in).empty());
  const auto dense = solver::scheme_traits(Solver::expm, Splitting::terms).memory(in);
  ASSERT_EQ(dense.size(), 1u);
  EXPECT_EQ(dense[0].bytes, 7.0 * 100.0 * 16.0);
  EXPECT_EQ(solver::scheme_traits(Solver::adaptive, Splitting::terms).memory(in)[0].bytes, 3.0 * 100.0 * 16.0);
  EXPECT_EQ(solver::scheme_traits(Solver::trotter, Splitting::chebyshev).memory(in).size(), 2u);
}

TEST(SchemeTraits, WhatOnlyTheCpuRuns) {
  const auto part = [](Solver s, Splitting p, bool open, const std::string& trainable) {
    EvolutionSpec e;
    e.solver = s;
    e.splitting = p;
    if (open) e.noise.push_back({"q0", 5000.0, 8000.0, {}});
    return solver::cpu_only_part(e, trainable);
  };
  EXPECT_EQ(part(Solver::trotter, Splitting::chebyshev, false, ""), "splitting: chebyshev");
  EXPECT_EQ(part(Solver::adaptive, Splitting::terms, false, ""), "solver: adaptive");
  EXPECT_EQ(part(Solver::adaptive, Splitting::terms, true, ""),
            "open systems with solver expm, adaptive or splitting: dense (evolution.noise / evolution.collapse)");
  EXPECT_EQ(part(Solver::trotter, Splitting::dense, true, ""),
            "open systems with solver expm, adaptive or splitting: dense (evolution.noise / evolution.collapse)");
  EXPECT_EQ(part(Solver::magnus4, Splitting::bonds, false, "x"), "");
  EXPECT_EQ(part(Solver::trotter, Splitting::terms, true, ""), "");
  EXPECT_EQ(part(Solver::trotter, Splitting::terms, true, "x"),
            "gradients of open systems (trainable parameters in `x`)");
  EXPECT_EQ(part(Solver::magnus4, Splitting::dense, false, "x"),
            "gradients with solver expm or splitting: dense (trainable parameters in `x`)");
}

}  // namespace
}  // namespace qevolve
