"""The standard workload (docs/presets.md "The standard workload") as a config file's text, for the
benchmark scripts that run it through `qevolve run` or the Python module: an N-qubit
mpc_fluxonium_1d chain, 2 levels, simultaneous X by cos pulses (auto amplitude and frequency,
50 ns), trotter order 2 with splitting terms, every computational column."""


def workload_yaml(n, steps=500):
    lines = ["device: {preset: mpc_fluxonium_1d, preset_args: {qubits: %d, levels: 2}}" % n, "pulses:"]
    for q in range(n):
        lines.append(f"  - {{qubit: q{q}, shape: cos, amplitude: auto, angle: 3.141592653589793, frequency: auto, "
                     f"phase: -1.5707963267948966, duration: 50}}")
    lines.append(f"evolution: {{solver: trotter, order: 2, splitting: terms, steps: {steps}}}")
    lines.append("target:\n  gates:")
    lines += [f"    - {{gate: X, qubits: [q{q}]}}" for q in range(n)]
    return "\n".join(lines) + "\n"
