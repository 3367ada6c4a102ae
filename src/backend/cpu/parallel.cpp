// The threading policy (backend/parallel.hpp) on OpenMP: a Team's calls are orphaned
// work-sharing constructs that bind to the region run_team opens.
#include "qevolve/backend/parallel.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

namespace qevolve::backend {

bool worth_threads(int threads, double flops, Index items) {
  return threads > 1 && items > 1 && flops > kMinParallelFlops;
}

int hardware_threads() { return std::max(1, omp_get_num_procs()); }

int Team::thread() const { return omp_get_thread_num(); }

int Team::size() const { return omp_get_num_threads(); }

void Team::for_static(Index begin, Index end, const std::function<void(Index)>& body) {
#pragma omp for schedule(static)
  for (Index i = begin; i < end; ++i) body(i);
}

void Team::for_dynamic(Index begin, Index end, const std::function<void(Index)>& body) {
#pragma omp for schedule(dynamic, 1)
  for (Index i = begin; i < end; ++i) body(i);
}

void Team::critical(const std::function<void()>& body) {
#pragma omp critical(qevolve_team)
  body();
}

void Team::in_order(const std::function<void()>& body) {
  const int n = size(), me = thread();
  for (int t = 0; t < n; ++t) {
#pragma omp barrier
    if (t == me) body();
  }
#pragma omp barrier
}

void Team::barrier() {
#pragma omp barrier
}

void run_team(int threads, bool parallel, const std::function<void(Team&)>& body) {
#pragma omp parallel num_threads(std::max(1, threads)) if (parallel)
  {
    Team team;
    body(team);
  }
}

}  // namespace qevolve::backend
