import { describe, expect, it } from 'vitest';
import { renumberCancelReasons } from './cancel-reasons';

describe('section 9: deleting a cancel reason renumbers value indices from 0', () => {
  it('renumbers in order', () => {
    const remaining = [{ label: 'Driver late', value: 0 }, { label: 'Changed plans', value: 2 }, { label: 'Other', value: 3 }];
    expect(renumberCancelReasons(remaining)).toEqual([
      { label: 'Driver late', value: 0 },
      { label: 'Changed plans', value: 1 },
      { label: 'Other', value: 2 },
    ]);
    expect(renumberCancelReasons([])).toEqual([]);
  });
});
