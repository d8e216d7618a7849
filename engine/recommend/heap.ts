/** A max-heap of items by a numeric value; ties go to the lower key, so results never depend on insertion order. */
export class MaxHeap<T extends { key: number }> {
  private items: { value: number; item: T }[] = [];

  get size(): number {
    return this.items.length;
  }

  private above(a: number, b: number): boolean {
    const x = this.items[a];
    const y = this.items[b];
    return x.value > y.value || (x.value === y.value && x.item.key < y.item.key);
  }

  push(item: T, value: number): void {
    this.items.push({ value, item });
    let i = this.items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.above(i, p)) break;
      [this.items[i], this.items[p]] = [this.items[p], this.items[i]];
      i = p;
    }
  }

  peek(): { value: number; item: T } | undefined {
    return this.items[0];
  }

  pop(): { value: number; item: T } | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (this.items.length && last) {
      this.items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.items.length && this.above(l, m)) m = l;
        if (r < this.items.length && this.above(r, m)) m = r;
        if (m === i) break;
        [this.items[i], this.items[m]] = [this.items[m], this.items[i]];
        i = m;
      }
    }
    return top;
  }
}
