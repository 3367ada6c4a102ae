"""qevolve from Python: the engine of the `qevolve` CLI, loaded once, with NumPy arrays.

    import qevolve
    sim = qevolve.load("examples/fluxonium_x.yaml")
    r = sim.run({"pulses[0].amplitude": 0.08})
    print(r.fidelity, r.unitary)

Every number comes from the C++ library (qevolve._core): a `run` equals `qevolve run --set ...`,
a `sweep` equals `qevolve sweep --vary ...`, and so on (docs/python.md). Overrides are a dict of
key paths (as `--set` takes them: ``"pulses[0].amplitude"``, ``"device.qubits[q0].el"``) to
values (numbers, strings, lists, dicts: written as YAML). Pulse and target overrides reuse the
cached simulator; device and evolution overrides rebuild only what they change. The engine
runs with the GIL released.
"""

from __future__ import annotations

import math
import warnings as _warnings
from typing import Any, Iterable, Mapping, Optional

import numpy as np

from . import _core
from ._core import ConfigError, NumericalError

__version__: str = _core.__version__

__all__ = [
    "ConfigError",
    "ConvergeResult",
    "NumericalError",
    "OptimizeResult",
    "QevolveWarning",
    "Result",
    "Simulation",
    "Spectrum",
    "SweepResult",
    "__version__",
    "load",
    "loads",
]

Overrides = Optional[Mapping[str, Any]]


class QevolveWarning(UserWarning):
    """What the CLI prints as ``qevolve: warning: ...`` (a step size too coarse for the fastest
    phase, a sweep that records no trace, a value that is most likely a unit mistake), raised
    with `warnings.warn` by `Simulation.run`, `sweep`, `optimize` and `spectrum` (docs/python.md
    "Warnings"); the text is the CLI's without its prefix."""


def _warn(messages: Iterable[str]) -> None:
    for message in messages:
        _warnings.warn(message, QevolveWarning, stacklevel=3)  # at the caller of Simulation.*


def _yaml(value: Any) -> str:
    """A Python value as the YAML text `--set` takes."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isnan(v):
            return ".nan"
        if math.isinf(v):
            return ".inf" if v > 0 else "-.inf"
        return repr(v)  # the shortest text that reads back as the same double
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_yaml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    raise TypeError(f"qevolve: cannot write {type(value).__name__} {value!r} as a config value")


def _sets(overrides: Overrides) -> list[str]:
    """{key: value} -> ["key=value", ...] in order, as `--set` arguments."""
    if not overrides:
        return []
    return [f"{k}={_yaml(v)}" for k, v in overrides.items()]


def _present(a: np.ndarray) -> Optional[np.ndarray]:
    """An array the run computed, or None for one it did not (the engine leaves it empty), as
    the HDF5 file has the dataset or not."""
    return a if a.size else None


class Result:
    """One evaluation, as `qevolve run` computes it (docs/output.md names the same arrays).

    Arrays are read-only NumPy views of the engine's storage (no copy): ``unitary``,
    ``unitary_compensated``, ``propagator``, ``superoperator``, ``angles`` and the ``trace``
    arrays. They stay valid as long as any of them or the Result is alive.

    With an ``ensemble:`` (docs/ensembles.md) ``fidelity``, ``uncompensated_fidelity``,
    ``leakage``, ``fidelity_error_steps`` and ``gradient`` are the objective's, ``ensemble``
    holds the members, and ``unitary``, ``unitary_compensated`` and ``propagator`` are None (per
    member, as the file has them).
    """

    __slots__ = ("_r",)

    def __init__(self, core: _core.RunResult) -> None:
        self._r = core

    @property
    def warnings(self) -> list[str]:
        """What `qevolve run` prints as ``qevolve: warning: ...`` for this evaluation (likely
        unit mistakes, the step size), without the prefix; `Simulation.run` also raises them as
        QevolveWarning."""
        return self._r.warnings

    @property
    def fidelity(self) -> float:
        """F after compensation (NaN without a target)."""
        return self._r.fidelity

    @property
    def fidelity_error_steps(self) -> float:
        """An estimate of |F(steps) - F(steps -> infinity)| (docs/accuracy.md); NaN when
        `evolution.error_estimate: false` or there is no fidelity."""
        return self._r.fidelity_error_steps

    @property
    def uncompensated_fidelity(self) -> float:
        """F before compensation (NaN without a target)."""
        return self._r.fidelity_uncompensated

    @property
    def leakage(self) -> float:
        """Leakage out of the computational subspace (NaN without a target)."""
        return self._r.leakage

    @property
    def unitary(self) -> Optional[np.ndarray]:
        """/unitary: the computational block (d x d, complex) before compensation; None where the
        file has no /unitary (open systems, no target)."""
        return _present(self._r.unitary)

    @property
    def unitary_compensated(self) -> Optional[np.ndarray]:
        """/unitary_compensated: the block after the compensation layers (None as unitary)."""
        return _present(self._r.unitary_compensated)

    @property
    def propagator(self) -> Optional[np.ndarray]:
        """/propagator: every evolved initial state (D x n, complex; closed systems; else None)."""
        return _present(self._r.propagator)

    @property
    def superoperator(self) -> Optional[np.ndarray]:
        """/superoperator: the channel on the initial states (open systems; else None)."""
        return _present(self._r.superoperator)

    @property
    def angles(self) -> np.ndarray:
        """/compensation/angles (empty without compensation)."""
        return self._r.angles

    @property
    def gradient(self) -> Optional[dict[str, float]]:
        """d(1 - F)/d(theta) by /gradient_names, when the config marks parameters `optimize:`."""
        names = self._r.gradient_names
        if not names:
            return None
        return dict(zip(names, self._r.gradient_values.tolist()))

    @property
    def ensemble(self) -> Optional[dict[str, Any]]:
        """/ensemble/* of an ``ensemble:`` config's run (None without one), in member order:
        ``fidelity``, ``fidelity_uncompensated``, ``leakage``, ``weights`` (normalised),
        ``fidelity_error_steps`` (NaN: none) and ``steps`` as arrays [K]; ``overrides`` (each
        member's ``"KEY = VALUE, ..."``), ``objective`` ("mean" or "worst"), ``worst`` (the member
        with the largest objective) and, with ``output: {ensemble_unitaries: true}``,
        ``unitaries`` (a list of d x d arrays, /ensemble/unitaries/K)."""
        e = self._r.ensemble
        if e is None:
            return None
        e["steps"] = np.array(e["steps"], dtype=np.int64)
        return e

    @property
    def trace(self) -> Optional[dict[str, np.ndarray]]:
        """/trace/* (time, populations, mode_populations, trace) when output.trace asks for it."""
        return self._r.trace_arrays() if self._r.has_trace else None

    @property
    def pulses(self) -> dict[str, Any]:
        """/pulses/*: ``time`` [S] (ns), ``values`` [P, S] (every pulse as its mode saw it: after
        its control line), ``names`` [P] and, when a pulse has a control line (docs/lines.md),
        ``ideal`` [P, S] (the pulses before their lines). Copies, except ``time``."""
        return self._r.pulse_arrays()

    @property
    def resolved(self) -> dict[str, float]:
        """/resolved: the numbers `auto` and derived shape keys resolved to."""
        return dict(self._r.resolved)

    @property
    def initial_states(self) -> list[str]:
        """/initial_states: the labels of the propagator's columns."""
        return self._r.initial_labels

    @property
    def dims(self) -> list[int]:
        """Levels of each mode."""
        return self._r.dims

    @property
    def top_level_population(self) -> list[float]:
        """/truncation/top_level_population: per mode (`dims` order), the largest population its
        top kept level reaches during the evolution, in the product basis the solver evolves in
        (docs/output.md "Truncation check"); NaN for a two-level qubit. Above 1e-2 `warnings`
        names the mode and the levels to try."""
        return self._r.top_level_population

    @property
    def engine_seconds(self) -> float:
        """The engine's own time: evolution + fidelity + gradient."""
        r = self._r
        return r.evolve_seconds + r.fidelity_seconds + r.gradient_seconds

    def save(self, path: str) -> None:
        """Writes the HDF5 file `qevolve run -o PATH` writes (atomically)."""
        self._r.save(str(path))

    def __repr__(self) -> str:
        return f"<qevolve.Result F={self.fidelity:.12g} leakage={self.leakage:.3g}>"


class SweepResult:
    """A sweep grid, as `qevolve sweep` computes it (/sweep/* of docs/output.md).

    ``fidelity``, ``uncompensated_fidelity`` and ``leakage`` have the grid's shape (one axis per
    swept key, in order); ``populations`` adds [d, d]. They are copied out of the engine's
    per-point records once, on construction.
    """

    def __init__(self, core: _core.SweepData) -> None:
        self._s = core
        self.keys: list[str] = core.keys
        self.warnings: list[str] = core.warnings  # as `qevolve sweep` prints them (QevolveWarning)
        self.shape: tuple[int, ...] = tuple(core.shape)
        self.axes: list[np.ndarray] = [core.axis_values(k) for k in range(len(self.keys))]
        self.labels: list[str] = core.labels
        self.fidelity: np.ndarray = core.figure("fidelity")
        self.uncompensated_fidelity: np.ndarray = core.figure("fidelity_uncompensated")
        self.leakage: np.ndarray = core.figure("leakage")
        # rad, as `qevolve run` reports it; NaN unless the target is one CZ / CPHASE on two qubits
        self.conditional_phase: np.ndarray = core.figure("conditional_phase")
        self.populations: np.ndarray = core.figure("populations")

    @property
    def builds(self) -> dict[str, int]:
        """What the cache built: devices, simulators, pulse-only updates, objectives (a target's
        matrix_file is read once per objective)."""
        d, s, p, o = self._s.builds
        return {"devices": d, "simulators": s, "pulse_updates": p, "objectives": o}

    def save(self, path: str) -> None:
        """Writes the HDF5 file `qevolve sweep -o PATH` writes."""
        self._s.save(str(path))


class Spectrum:
    """`qevolve spectrum`'s figures: dressed energies and labels, per-mode figures, static ZZ.

    With ``Simulation.spectrum(gradient=[keys])``, also their derivatives with respect to those
    device parameters (Hellmann-Feynman, exact for the truncated Hamiltonian the spectrum
    diagonalises): ``gradient_names`` (the keys as /gradient_names spells them, in the order
    asked), ``energies_gradient`` [levels, keys] (GHz per unit of each key: per GHz of EJ, per
    flux quantum of flux, ...; row k is the k-th lowest level, as ``energies``), per mode
    ``f01_bare_gradient``, ``f12_bare_gradient``, ``f01_dressed_gradient`` [keys], and
    ``zz_khz_gradient`` per pair [keys] (kHz per unit). Without a gradient these are None
    (``gradient_names`` empty); phi01 and n01 have none.
    """

    def __init__(self, core: _core.SpectrumData) -> None:
        self.energies: np.ndarray = np.array(core.energies)
        self.labels: list[str] = core.labels
        self.gradient_names: list[str] = core.gradient_names
        self.warnings: list[str] = core.warnings  # as `qevolve spectrum` prints them (QevolveWarning)
        d = {f: np.array(core.gradient(f)) for f in _FIGURES} if self.gradient_names else None
        self.energies_gradient: Optional[np.ndarray] = d["energies"] if d else None
        self.modes: dict[str, dict[str, Any]] = {
            name: {
                "type": core.types[i],
                "f01_bare": core.f01_bare[i],
                "f12_bare": core.f12_bare[i],
                "f01_dressed": core.f01_dressed[i],
                "phi01": core.phi01[i],
                "n01": core.n01[i],
                "f01_bare_gradient": d["f01_bare"][i] if d else None,
                "f12_bare_gradient": d["f12_bare"][i] if d else None,
                "f01_dressed_gradient": d["f01_dressed"][i] if d else None,
            }
            for i, name in enumerate(core.modes)
        }
        pairs = [tuple(p) for p in core.zz_pairs]
        self.zz_khz: dict[tuple[str, str], float] = dict(zip(pairs, core.zz_khz))
        self.zz_khz_gradient: Optional[dict[tuple[str, str], np.ndarray]] = (
            {p: d["zz_khz"][k] for k, p in enumerate(pairs)} if d else None)


_FIGURES = ("energies", "f01_bare", "f12_bare", "f01_dressed", "zz_khz")


class OptimizeResult:
    """`qevolve optimize`'s outcome: the final evaluation, the parameters, /history.

    Attributes: `result` (the final evaluation, a Result), `names` (the parameters, as
    `Simulation.parameters`), `x0` and `x` (the start and the optimum as config values theta, in
    the config's units, as /x0 and the optimised YAML: not the scaled variables of
    `Simulation.x0`), `history` (dict of the /history arrays: iteration, infidelity, leakage,
    objective, gradient_norm, step, wall_time_s), `stop_reason`, `evaluations`,
    `optimized_yaml` (the text of OUT.optimized.yaml); `parameters` (x by name), `save(path)`.
    """

    def __init__(self, core: _core.OptimizeData) -> None:
        self.result: Result = Result(core.result)
        self.names: list[str] = core.names
        self.x0: np.ndarray = np.array(core.x0)
        self.x: np.ndarray = np.array(core.x)
        self.history: dict[str, np.ndarray] = {
            k: np.array(getattr(core, k))
            for k in ("iteration", "infidelity", "leakage", "objective", "gradient_norm", "step", "wall_time_s")
        }
        self.stop_reason: str = core.stop_reason
        self.evaluations: int = core.evaluations
        self.optimized_yaml: str = core.optimized_yaml

    @property
    def parameters(self) -> dict[str, float]:
        """The optimised values by name."""
        return dict(zip(self.names, self.x.tolist()))

    def save(self, path: str) -> None:
        """Writes the HDF5 file `qevolve optimize -o PATH` writes (with /history)."""
        self.result.save(path)


class ConvergeResult:
    """`qevolve converge`'s outcome (docs/accuracy.md "qevolve converge").

    Attributes: `rows` (the table: one dict per row with setting, fidelity, change, estimate,
    seconds, verdict), `table` (the text `qevolve converge` prints), `steps`, `levels` (mode ->
    levels), `fidelity` and `estimate` (F at them and its step-error estimate), `converged`
    (False: a cap or the memory stopped it first, the CLI's exit 3; `stop_reason` says why and
    the other attributes hold the best setting so far), `converged_yaml` (the text of
    CONFIG.converged.yaml), `wall_time`; `save(path)` writes the YAML.
    """

    def __init__(self, core: _core.ConvergeData) -> None:
        self.rows: list[dict[str, Any]] = [
            {"setting": s, "fidelity": f, "change": c, "estimate": e, "seconds": t, "verdict": v}
            for s, f, c, e, t, v in zip(core.settings, core.fidelity, core.change, core.estimate, core.seconds,
                                        core.verdicts)
        ]
        self.table: str = core.table
        self.steps: int = core.steps
        self.levels: dict[str, int] = dict(zip(core.modes, core.levels))
        self.fidelity: float = core.final_fidelity
        self.estimate: float = core.final_estimate
        self.converged: bool = core.converged
        self.stop_reason: str = core.stop_reason
        self.converged_yaml: str = core.converged_yaml
        self.wall_time: float = core.wall_time

    def save(self, path: str) -> None:
        """Writes the converged config (the file `qevolve converge -o PATH` writes)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.converged_yaml)

    def __repr__(self) -> str:
        state = "converged" if self.converged else "stopped"
        return f"<qevolve.ConvergeResult {state}: F = {self.fidelity:.12f}, steps {self.steps}, levels {self.levels}>"


class Simulation:
    """A config loaded once, with its cached device and simulator. Build with load()/loads()."""

    def __init__(self, session: _core.Session) -> None:
        self._s = session

    @property
    def threads(self) -> int:
        """Threads of every evaluation (0: all cores, the CLI's default)."""
        return self._s.threads

    def run(self, overrides: Overrides = None) -> Result:
        """`qevolve run --set KEY=VALUE ...`: evolve, fidelity with compensation and, when
        parameters are marked `optimize:`, the gradient. An ``ensemble:`` config: every member
        and the objective, as `qevolve run` computes them (`Result.ensemble`)."""
        result = Result(self._s.run(_sets(overrides)))
        _warn(result.warnings)
        return result

    def gradient(self, overrides: Overrides = None) -> dict[str, float]:
        """d(1 - F)/d(theta) keyed by /gradient_names (ConfigError when nothing is trainable); an
        ``ensemble:`` config: the objective's, as `qevolve run` writes /gradient."""
        return self._s.gradient(_sets(overrides))

    @property
    def parameters(self) -> list[str]:
        """The trainable parameters (`optimize:` lists), in /gradient_names order."""
        return self._s.parameter_names

    @property
    def x0(self) -> np.ndarray:
        """The start point in the optimiser's variables u = theta / scales: the config's values
        of the trainable parameters, each in units of its `scales` entry (amplitudes and
        frequencies in MHz, phases in 0.01 rad, times in 0.1 ns, ...; docs/optimize.md). This is
        the x of `value_and_grad`; `values(x0)` gives the config's values by name."""
        return self._s.x0 / self._s.scales

    @property
    def bounds(self) -> list[tuple[float, float]]:
        """Each parameter's domain (e.g. sigma > 0) in the variables of `x0`, for
        ``scipy.optimize.minimize(bounds=...)``."""
        return [(float(lo / s), float(hi / s)) for (lo, hi), s in zip(self._s.bounds, self._s.scales)]

    @property
    def scales(self) -> np.ndarray:
        """Each parameter's typical meaningful change, in the config's units (1e-3 GHz of
        amplitude or frequency, 0.01 rad of phase, 0.1 ns of a time, ...): the unit of its
        entry of `x0`; theta = x * scales (docs/optimize.md)."""
        return self._s.scales

    def values(self, x: Any) -> dict[str, float]:
        """The config values theta = x * scales of a point x of the optimiser's variables (as
        `x0`), keyed by parameter name: an `overrides` dict, e.g. ``sim.run(sim.values(res.x))``."""
        theta = self._point(x, "values") * self._s.scales
        return dict(zip(self._s.parameter_names, theta.tolist()))

    def value_and_grad(self, x: Any, scaled: bool = True) -> tuple[float, np.ndarray]:
        """`qevolve optimize`'s objective (1 - F) + w leakage (w: optimize.leakage_weight, 0 by
        default) and its gradient at x, for
        ``scipy.optimize.minimize(sim.value_and_grad, sim.x0, jac=True, method="L-BFGS-B")``,
        which then follows `qevolve optimize`'s path.

        x is in the optimiser's variables u = theta / scales (as `x0`), and the gradient is
        d objective / du = scales * d objective / d theta: a quasi-Newton method's first step is
        one typical change of each parameter whatever its units. ``scaled=False``: x is theta
        itself, in the config's units, and the gradient d objective / d theta (a first step of
        one unit, e.g. a GHz of amplitude, may then lead to another minimum).

        An ``ensemble:`` config: the ensemble objective `qevolve optimize` minimises (mean:
        sum_k w_k o_k; worst: the smooth power mean of the o_k; docs/ensembles.md) and its
        gradient, from the members' problems built once for the Simulation.
        """
        return self._s.value_and_grad(self._point(x, "value_and_grad"), bool(scaled))

    def _point(self, x: Any, where: str) -> np.ndarray:
        """x as a contiguous float64 vector of one value per parameter (else ConfigError)."""
        a = np.ascontiguousarray(x, dtype=np.float64)
        names = self._s.parameter_names
        if a.shape != (len(names),):
            problem = (f"x has shape {a.shape}; expected a 1-D array of {len(names)} values, "
                       f"one per parameter ({', '.join(names)})")
            error = ConfigError(f"{where}: {problem}")
            error.key_path, error.file, error.line, error.column, error.problem = "", "", 0, 0, problem
            raise error
        return a

    def sweep(self, axes: Mapping[str, Iterable[Any]], overrides: Overrides = None) -> SweepResult:
        """`qevolve sweep --vary KEY=v1,v2,... --set ...`: the grid of every axis (the first
        slowest), points evaluated over `threads` threads from cached simulators."""
        vary = [f"{k}=" + ",".join(_yaml(v) for v in values) for k, values in axes.items()]
        result = SweepResult(self._s.sweep(vary, _sets(overrides)))
        _warn(result.warnings)
        return result

    def spectrum(self, overrides: Overrides = None, gradient: Optional[Iterable[str]] = None) -> Spectrum:
        """`qevolve spectrum --set ...`; `gradient`: keys of device parameters, as `--set` spells
        them (``"device.qubits[q0].ej"``, ``"device.couplings[0].capacitive"``), whose
        derivatives the Spectrum then holds (``energies_gradient``, ...: a Jacobian for
        ``scipy.optimize.least_squares``). A key that names no device parameter raises
        ConfigError (a did-you-mean for a misspelt parameter or mode)."""
        keys = [gradient] if isinstance(gradient, str) else [str(k) for k in (gradient or [])]
        core = self._s.spectrum(_sets(overrides), keys)
        _warn(core.warnings)
        return Spectrum(core)

    def optimize(self, overrides: Overrides = None, resume: Optional[str] = None, verbose: bool = False) -> OptimizeResult:
        """`qevolve optimize --set ...` (the config's `optimize:` section; `resume` as --resume;
        `verbose` prints the iteration lines on stderr); an ``ensemble:`` config optimises the
        ensemble objective, as the CLI does."""
        result = OptimizeResult(self._s.optimize(_sets(overrides), str(resume or ""), verbose))
        _warn(result.result.warnings)
        return result

    def converge(self, tolerance: float, overrides: Overrides = None) -> ConvergeResult:
        """`qevolve converge --tolerance T --set ...`: the steps refined by the step-error
        estimate and each mode's levels raised until F moves by less than `tolerance`
        (docs/accuracy.md "qevolve converge"). A tolerance outside (0, 0.1], or a first refinement
        that cannot fit in memory, raises ConfigError before any work; when a cap stops it, the
        result has ``converged`` False (and a QevolveWarning says why)."""
        result = ConvergeResult(self._s.converge(float(tolerance), _sets(overrides)))
        if not result.converged:
            _warn([f"converge stopped before F moved by less than the tolerance: {result.stop_reason}"])
        return result

    def __repr__(self) -> str:
        return f"<qevolve.Simulation {self._s.name}>"


def load(path: str, overrides: Overrides = None, threads: int = 0) -> Simulation:
    """Loads and validates the config file at `path` (`overrides` apply to every call)."""
    return Simulation(_core.Session.from_file(str(path), _sets(overrides), threads))


def loads(yaml_text: str, overrides: Overrides = None, threads: int = 0, name: str = "<string>") -> Simulation:
    """The same from YAML text (`name` is FILE in messages)."""
    return Simulation(_core.Session(yaml_text, name, _sets(overrides), threads))
