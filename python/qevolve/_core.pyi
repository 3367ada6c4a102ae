# Type stub of qevolve._core, the nanobind bindings of include/qevolve/session.hpp. Users call
# the classes of qevolve/__init__.py (Simulation, Result, ...), which wrap these.
from typing import Any, Callable, Optional

import numpy as np

__version__: str

class ConfigError(ValueError):
    """Bad input: the CLI's `FILE:LINE:COL: key.path: problem` message, and its parts."""

    key_path: str
    file: str
    line: int
    column: int
    problem: str

class NumericalError(ArithmeticError):
    """A numerical failure (NaN, lost unitarity, non-convergence): the CLI's exit code 3."""

class RunResult:
    has_fidelity: bool
    fidelity: float
    fidelity_uncompensated: float
    leakage: float
    is_open: bool
    angles: np.ndarray
    unitary: np.ndarray
    unitary_compensated: np.ndarray
    propagator: np.ndarray
    superoperator: np.ndarray
    gradient_names: list[str]
    gradient_values: np.ndarray
    ensemble: Optional[dict[str, Any]]  # None without an ensemble
    resolved: list[tuple[str, float]]
    initial_labels: list[str]
    dims: list[int]
    warnings: list[str]
    top_level_population: list[float]
    evolve_seconds: float
    fidelity_seconds: float
    gradient_seconds: float
    has_trace: bool
    def trace_arrays(self) -> dict[str, np.ndarray]: ...
    def pulse_arrays(self) -> dict[str, np.ndarray | list[str]]: ...
    def save(self, path: str) -> None: ...

class SweepData:
    shape: list[int]
    keys: list[str]
    labels: list[str]
    builds: list[int]
    warnings: list[str]
    def axis_values(self, k: int) -> np.ndarray: ...
    def axis_texts(self, k: int) -> list[str]: ...
    def figure(self, name: str) -> np.ndarray: ...
    def save(self, path: str) -> None: ...

class SpectrumData:
    energies: np.ndarray
    labels: list[str]
    modes: list[str]
    types: list[str]
    f01_bare: list[float]
    f12_bare: list[float]
    f01_dressed: list[float]
    phi01: list[float]
    n01: list[float]
    zz_pairs: list[tuple[str, str]]
    zz_khz: list[float]
    gradient_names: list[str]
    warnings: list[str]
    def gradient(self, figure: str) -> np.ndarray: ...

class OptimizeData:
    result: RunResult
    names: list[str]
    x0: np.ndarray
    x: np.ndarray
    iteration: list[int]
    infidelity: list[float]
    leakage: list[float]
    objective: list[float]
    gradient_norm: list[float]
    step: list[float]
    wall_time_s: list[float]
    stop_reason: str
    evaluations: int
    optimized_yaml: str

class ConvergeData:
    settings: list[str]
    verdicts: list[str]
    fidelity: list[float]
    change: list[float]
    estimate: list[float]
    seconds: list[float]
    table: str
    steps: int
    modes: list[str]
    levels: list[int]
    final_fidelity: float
    final_estimate: float
    converged: bool
    stop_reason: str
    converged_yaml: str
    wall_time: float

class Session:
    def __init__(self, text: str, name: str, sets: list[str], threads: int) -> None: ...
    @staticmethod
    def from_file(path: str, sets: list[str], threads: int) -> Session: ...
    def run(self, overrides: list[str]) -> RunResult: ...
    def gradient(self, overrides: list[str]) -> dict[str, float]: ...
    parameter_names: list[str]
    bounds: list[tuple[float, float]]
    x0: np.ndarray
    scales: np.ndarray
    def value_and_grad(self, x: np.ndarray, scaled: bool) -> tuple[float, np.ndarray]: ...
    def sweep(self, vary: list[str], overrides: list[str]) -> SweepData: ...
    def spectrum(self, overrides: list[str], gradient: list[str]) -> SpectrumData: ...
    def optimize(self, overrides: list[str], resume: str, verbose: bool) -> OptimizeData: ...
    def converge(self, tolerance: float, overrides: list[str]) -> ConvergeData: ...
    ensemble_builds: int  # members built by the session's ensemble problems
    threads: int
    text: str
    name: str
