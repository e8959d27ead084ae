import { rememberedTable } from './remembered';

describe('rememberedTable', () => {
  it('works a value out once per key, and lists what it holds oldest first', () => {
    const t = rememberedTable<number>(10);
    let made = 0;
    const make = (v: number) => () => { made++; return v; };
    expect([t.get('a', make(1)), t.get('b', make(2)), t.get('a', make(9))]).toEqual([1, 2, 1]);
    expect(made).toBe(2);
    expect(t.entries()).toEqual([['a', 1], ['b', 2]]);
  });

  it('takes what an earlier process handed it, keeping what it knows, up to its size', () => {
    const t = rememberedTable<string>(2);
    t.get('a', () => 'mine');
    t.remember([['a', 'theirs'], ['b', 'theirs'], ['c', 'theirs']]);
    expect(t.entries()).toEqual([['a', 'mine'], ['b', 'theirs']]);
  });

  it('starts over once full', () => {
    const t = rememberedTable<number>(2);
    t.get('a', () => 1);
    t.get('b', () => 2);
    t.get('c', () => 3);
    expect(t.entries()).toEqual([['c', 3]]);
  });
});
