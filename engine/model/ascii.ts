/**
 * Names matched case-insensitively (paths, query names, dataset names in paths: docs/design.md §3.10) fold ASCII
 * letters only. `toLowerCase()` folds more: the Kelvin sign (U+212A) becomes k, so `/Stoc\u212A` would reach
 * `/Stock`, where a proxy or a real service in front would see another path.
 */
export const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
