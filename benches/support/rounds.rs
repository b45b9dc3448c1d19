//! Contestants that take turns: every round runs each of them once, so that the drift of a
//! shared machine's speed reaches all alike; the report is the median time of each and the
//! median of the per-round ratios.

// Each bench that includes this file uses only its part of it.
#![allow(dead_code)]

use std::time::{Duration, Instant};

const WARM_UP_ROUNDS: usize = 3;
const ROUNDS: usize = 25;

fn median<T: PartialOrd + Copy>(values: &mut [T]) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).expect("times and ratios are comparable"));
    values[values.len() / 2]
}

/// One set-up, its input size and its time in each round.
pub struct Contestant<'c> {
    name: &'static str,
    bytes: usize,
    run: Box<dyn FnMut() + 'c>,
    times: Vec<Duration>,
}

impl<'c> Contestant<'c> {
    pub fn new(name: &'static str, bytes: usize, run: impl FnMut() + 'c) -> Self {
        Contestant {
            name,
            bytes,
            run: Box::new(run),
            times: Vec::with_capacity(ROUNDS),
        }
    }

    fn round(&mut self) {
        let start = Instant::now();
        (self.run)();
        self.times.push(start.elapsed());
    }

    /// Bytes per second in round `i`.
    fn throughput(&self, i: usize) -> f64 {
        self.bytes as f64 / self.times[i].as_secs_f64()
    }

    pub fn report(&self) {
        let time = median(&mut self.times.clone());
        let mib_per_s = self.bytes as f64 / time.as_secs_f64() / (1 << 20) as f64;
        println!(
            "{}: {mib_per_s:.1} MiB/s (median of {ROUNDS} rounds, {:.2} ms)",
            self.name,
            time.as_secs_f64() * 1e3
        );
    }
}

/// Runs the warm-up rounds and then the measured ones, each contestant once per round.
pub fn take_turns(contestants: &mut [&mut Contestant<'_>]) {
    for round in 0..WARM_UP_ROUNDS + ROUNDS {
        for contestant in contestants.iter_mut() {
            contestant.round();
            if round < WARM_UP_ROUNDS {
                contestant.times.clear();
            }
        }
    }
}

/// The median, lowest and highest over the rounds of `theirs`'s time per byte over `ours`'s.
fn per_round(ours: &Contestant<'_>, theirs: &Contestant<'_>) -> (f64, f64, f64) {
    let mut ratios: Vec<f64> = (0..ROUNDS)
        .map(|i| ours.throughput(i) / theirs.throughput(i))
        .collect();
    let middle = median(&mut ratios);
    (middle, ratios[0], ratios[ROUNDS - 1])
}

/// Prints the throughput ratio of `ours` over `theirs`: how many times faster it is.
pub fn report_ratio(ours: &Contestant<'_>, theirs: &Contestant<'_>) {
    let (middle, lowest, highest) = per_round(ours, theirs);
    println!(
        "throughput ratio, {} over {}: {middle:.2}x (median of per-round ratios; lowest {lowest:.2}x, highest {highest:.2}x)",
        ours.name, theirs.name
    );
}

/// Prints how many times longer `ours` takes than `theirs` per byte: the inverse ratio.
pub fn report_cost(ours: &Contestant<'_>, theirs: &Contestant<'_>) {
    let (middle, lowest, highest) = per_round(theirs, ours);
    println!(
        "cost of {} over {}: {middle:.2}x per byte (median of per-round ratios; lowest {lowest:.2}x, highest {highest:.2}x)",
        ours.name, theirs.name
    );
}
