//! Small statistics for the commands' output: percentiles of a sample and
//! rounding for JSON.

/// Rounds to 6 decimals (ns when in ms), for readable JSON.
pub fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Median and 95th percentile (nearest rank) of a sample, in the sample's unit.
pub fn median_p95(samples: &mut [f64]) -> (f64, f64) {
    if samples.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let n = samples.len();
    let median = if n % 2 == 1 {
        samples[n / 2]
    } else {
        0.5 * (samples[n / 2 - 1] + samples[n / 2])
    };
    let rank = (0.95 * n as f64).ceil() as usize;
    (median, samples[rank.clamp(1, n) - 1])
}

#[cfg(test)]
mod tests {
    use super::median_p95;

    #[test]
    fn percentiles() {
        let mut v: Vec<f64> = (1..=100).map(|x| x as f64).collect();
        assert_eq!(median_p95(&mut v), (50.5, 95.0));
        let mut v = vec![3.0, 1.0, 2.0];
        assert_eq!(median_p95(&mut v), (2.0, 3.0));
        let mut v = vec![7.0];
        assert_eq!(median_p95(&mut v), (7.0, 7.0));
    }
}
