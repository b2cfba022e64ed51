//! Cores of their own for confined bots (docs/tournament.md, "Fair clocks").
//!
//! A CPU quota alone bounds how much a bot runs, not where: an opponent that
//! spins on every core in its turn still shares the moving bot's core for part of
//! each quota period, and the moving bot's clock (wall time) pays for it. While a
//! game is under way each of its confined bots is held to cores no other bot of
//! the tournament holds (a cpuset control group), as many as its CPU limit rounds
//! up to. When the cores run out (more bots under way than the machine has cores,
//! which the tournament warns about), a bot gets every core and only its quota.

use std::sync::Mutex;

/// A CPU list in the kernel's form (`0-3,8,10-11`): the CPUs in increasing
/// order, or `None` if the text is not one.
pub fn parse_list(text: &str) -> Option<Vec<u32>> {
    let mut cpus = Vec::new();
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => (a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?),
            None => {
                let c = part.trim().parse::<u32>().ok()?;
                (c, c)
            }
        };
        if lo > hi || hi - lo > 4096 {
            return None;
        }
        cpus.extend(lo..=hi);
    }
    cpus.sort_unstable();
    cpus.dedup();
    Some(cpus)
}

/// `cpus` in the kernel's list form (ranges folded: `[0, 1, 2, 5]` is `0-2,5`).
pub fn format_list(cpus: &[u32]) -> String {
    let mut sorted = cpus.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(&lo) = sorted.get(i) {
        let mut hi = lo;
        while sorted.get(i + 1) == Some(&(hi + 1)) {
            hi += 1;
            i += 1;
        }
        out.push(if hi == lo {
            lo.to_string()
        } else {
            format!("{lo}-{hi}")
        });
        i += 1;
    }
    out.join(",")
}

/// The cores a bot holds for `cpu` cores of CPU limit: the limit rounded up, at
/// least one.
pub fn wanted(cpu: f64) -> usize {
    if cpu.is_finite() && cpu > 1.0 {
        cpu.ceil().min(4096.0) as usize
    } else {
        1
    }
}

/// The machine's cores a tournament hands out, and which are held.
#[derive(Debug)]
pub struct Pool {
    all: Vec<u32>,
    held: Vec<u32>,
}

impl Pool {
    /// A pool of `all` (none held).
    pub fn new(all: Vec<u32>) -> Pool {
        Pool {
            all,
            held: Vec::new(),
        }
    }

    /// Every core of the pool.
    pub fn all(&self) -> &[u32] {
        &self.all
    }

    /// `n` cores no one holds, now held, or `None` (nothing held) if fewer are
    /// free.
    pub fn claim(&mut self, n: usize) -> Option<Vec<u32>> {
        let free: Vec<u32> = self
            .all
            .iter()
            .copied()
            .filter(|c| !self.held.contains(c))
            .take(n)
            .collect();
        if n == 0 || free.len() < n {
            return None;
        }
        self.held.extend(&free);
        Some(free)
    }

    /// Give `cores` back.
    pub fn give(&mut self, cores: &[u32]) {
        self.held.retain(|c| !cores.contains(c));
    }
}

/// The tournament's pool, made from the machine's cores on first use.
static POOL: Mutex<Option<Pool>> = Mutex::new(None);

/// `n` cores of their own for a bot, or `None` if fewer are free; `all` (the
/// cores the tournament may use, read by the caller once) fills the pool the
/// first time.
pub fn claim(n: usize, all: &[u32]) -> Option<Vec<u32>> {
    let mut pool = POOL.lock().ok()?;
    pool.get_or_insert_with(|| Pool::new(all.to_vec())).claim(n)
}

/// A bot's game is over: its cores are free again.
pub fn give(cores: &[u32]) {
    if let Ok(mut pool) = POOL.lock() {
        if let Some(p) = pool.as_mut() {
            p.give(cores);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_the_kernel_writes_them() {
        assert_eq!(parse_list("0-1\n"), Some(vec![0, 1]));
        assert_eq!(parse_list("0-2,5,7-8"), Some(vec![0, 1, 2, 5, 7, 8]));
        assert_eq!(parse_list("3"), Some(vec![3]));
        assert_eq!(parse_list(""), Some(vec![]));
        assert_eq!(parse_list("2-1"), None);
        assert_eq!(parse_list("a"), None);
        assert_eq!(parse_list("0-"), None);
        for cpus in [
            vec![0],
            vec![0, 1],
            vec![0, 1, 2, 5],
            vec![1, 3, 5],
            vec![4, 5, 6, 9, 10],
        ] {
            assert_eq!(parse_list(&format_list(&cpus)), Some(cpus.clone()));
        }
        assert_eq!(format_list(&[5, 0, 1, 2]), "0-2,5");
        assert_eq!(format_list(&[1, 3]), "1,3");
    }

    #[test]
    fn cores_are_held_by_one_bot_at_a_time() {
        let mut p = Pool::new(vec![0, 1, 2]);
        let a = p.claim(1).unwrap();
        let b = p.claim(2).unwrap();
        assert_eq!(a.len() + b.len(), 3);
        assert!(a.iter().all(|c| !b.contains(c)), "{a:?} and {b:?} overlap");
        assert_eq!(p.claim(1), None, "none left");
        p.give(&a);
        assert_eq!(p.claim(2), None, "one free is not two");
        assert_eq!(p.claim(1), Some(a.clone()));
        p.give(&b);
        p.give(&a);
        assert_eq!(p.claim(3).map(|v| v.len()), Some(3));
        assert_eq!(Pool::new(vec![0]).claim(0), None);
    }

    #[test]
    fn a_limit_rounds_up_to_whole_cores() {
        assert_eq!(wanted(1.0), 1);
        assert_eq!(wanted(0.5), 1);
        assert_eq!(wanted(1.5), 2);
        assert_eq!(wanted(2.0), 2);
        assert_eq!(wanted(f64::NAN), 1);
    }
}
