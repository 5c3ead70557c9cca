// The in-process development chain keeps to the wall clock: many blocks mined within a second share
// its timestamp. Were each block a second later than the last (Hardhat's default), a few hundred quick
// settlements would put the chain minutes ahead, and fresh authorizations would look expired to it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startDevChain } from '../../devchain/chain.ts';

test('mining 400 blocks at once leaves the chain clock within seconds of the wall clock', { timeout: 60_000 }, async () => {
  const { provider } = await startDevChain();
  const latestTimestamp = async () => {
    const block = (await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: string; number: string };
    return { seconds: Number(BigInt(block.timestamp)), number: Number(BigInt(block.number)) };
  };
  const before = await latestTimestamp();
  for (let i = 0; i < 400; i++) await provider.request({ method: 'evm_mine' } as never);
  const after = await latestTimestamp();
  assert.equal(after.number - before.number, 400, 'each evm_mine mined one block');
  const drift = after.seconds - Math.floor(Date.now() / 1000);
  assert.ok(drift <= 5, `the chain's clock is ${drift} s ahead of the wall clock after 400 blocks`);
});
