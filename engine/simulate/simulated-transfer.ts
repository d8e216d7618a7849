/** A transfer the replay's engine proposed, approved at once. */
import type { TransferType } from '../recommend/proposal.js';

export interface SimulatedTransfer {
  day: number;
  transferType: TransferType;
  fromLocationId: string;
  toLocationId: string;
  skuId: string;
  quantity: number;
  referenceId: string;
}
