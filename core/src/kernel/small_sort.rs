//! One stable sort for the engine's short lists (initiative orders, condition
//! sets, id lists).
//!
//! `slice::sort_by` is instantiated for every element type *and every comparison
//! closure*, about 2.5 KB of wasm each; a dozen call sites cost ~40 KB. Here the
//! comparison is a `&dyn Fn` over indices, so the merge sort exists once and each
//! element type adds only a few bytes. It is a stable bottom-up merge sort,
//! O(n log n), that never panics.

use std::cmp::Ordering;

/// The indices `0..n`, stably sorted by `cmp` (equal elements keep index order).
pub(crate) fn sorted_indices(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    let mut buf: Vec<usize> = vec![0; n];
    let mut width = 1usize;
    while width < n {
        let mut start = 0usize;
        while start < n {
            let mid = start.saturating_add(width).min(n);
            let end = start.saturating_add(width.saturating_mul(2)).min(n);
            let (mut i, mut j) = (start, mid);
            for k in start..end {
                let left = match (v.get(i), v.get(j)) {
                    (Some(&a), Some(&b)) if i < mid && j < end => cmp(a, b) != Ordering::Greater,
                    _ => i < mid,
                };
                let taken = if left { &mut i } else { &mut j };
                if let (Some(slot), Some(&x)) = (buf.get_mut(k), v.get(*taken)) {
                    *slot = x;
                }
                *taken += 1;
            }
            start = end;
        }
        std::mem::swap(&mut v, &mut buf);
        width = width.saturating_mul(2);
    }
    v
}

/// Sort `items` stably by `cmp`.
pub(crate) fn sort_by<T>(items: &mut Vec<T>, cmp: &dyn Fn(&T, &T) -> Ordering) {
    let order = {
        let all: &[T] = items;
        sorted_indices(all.len(), &|a, b| match (all.get(a), all.get(b)) {
            (Some(x), Some(y)) => cmp(x, y),
            _ => Ordering::Equal,
        })
    };
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    *items = order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)).collect();
}

/// Sort `items` stably in ascending order.
pub(crate) fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, &T::cmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_std_stable_sort() {
        // A small linear congruential sequence: many lengths, many ties.
        let mut x = 12345u32;
        for n in 0..70usize {
            let mut items: Vec<(u32, usize)> = (0..n)
                .map(|i| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    ((x >> 16) % 7, i)
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|a| a.0);
            sort_by(&mut items, &|a, b| a.0.cmp(&b.0));
            assert_eq!(items, expected, "n = {n}");
            let idx = sorted_indices(n, &|a, b| expected[b].0.cmp(&expected[a].0));
            let mut by_std: Vec<usize> = (0..n).collect();
            by_std.sort_by(|&a, &b| expected[b].0.cmp(&expected[a].0));
            assert_eq!(idx, by_std);
        }
        let mut words = vec!["b".to_string(), "a".to_string(), "c".to_string(), "a".to_string()];
        sort(&mut words);
        assert_eq!(words, ["a", "a", "b", "c"]);
    }
}
