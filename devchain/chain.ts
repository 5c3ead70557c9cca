// The local development chain: Hardhat 2's in-process EVM (chain id 31337) with our USDC-like
// token deployed, Multicall3 at its canonical address (the x402 facilitator reads precise failure
// reasons through it), and funded accounts: the facilitator's gas payer, the pay-to address and a
// payer holding test USDC.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createPublicClient, createWalletClient, custom, defineChain, multicall3Abi, type Address, type EIP1193Provider, type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { compileTestToken } from './token.ts';

export const DEV_CHAIN_ID = 31337;
export const DEV_NETWORK = 'eip155:31337';
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** Hardhat's well-known test keys (hardhat.config.cjs): public knowledge, for local use only. */
export const DEV_KEYS = {
  facilitator: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  payTo: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  payer: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  otherPayer: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
} as const satisfies Record<string, Hex>;

/** Test USDC given to each payer account at start: 1,000 USDC in 6-decimal units. */
export const PAYER_FUNDING = 1_000_000_000n;

export const devChain = defineChain({
  id: DEV_CHAIN_ID,
  name: 'Local development chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
  contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
});

export interface DevChain {
  provider: EIP1193Provider;
  token: Address;
  addresses: { facilitator: Address; payTo: Address; payer: Address; otherPayer: Address };
  balanceOf(address: Address): Promise<bigint>;
}

const require = createRequire(import.meta.url);

/** Multicall3's canonical creation code, as viem ships it (a constant viem does not export by name). */
async function multicall3Bytecode(): Promise<Hex> {
  const viemRoot = dirname(require.resolve('viem/package.json'));
  const constants = (await import(pathToFileURL(join(viemRoot, '_esm/constants/contracts.js')).href)) as { multicall3Bytecode: Hex };
  return constants.multicall3Bytecode;
}

let started: Promise<DevChain> | undefined;

/** Starts the in-process chain once per process and deploys the contracts. */
export function startDevChain(): Promise<DevChain> {
  started ??= start();
  return started;
}

async function start(): Promise<DevChain> {
  // Hardhat finds hardhat.config.cjs from the working directory; point it at the project's.
  process.env.HARDHAT_CONFIG ??= fileURLToPath(new URL('../hardhat.config.cjs', import.meta.url));
  const hre = require('hardhat') as { network: { provider: EIP1193Provider } };
  const provider = hre.network.provider;
  const transport = custom(provider);
  const publicClient = createPublicClient({ chain: devChain, transport });
  const addresses = {
    facilitator: privateKeyToAccount(DEV_KEYS.facilitator).address,
    payTo: privateKeyToAccount(DEV_KEYS.payTo).address,
    payer: privateKeyToAccount(DEV_KEYS.payer).address,
    otherPayer: privateKeyToAccount(DEV_KEYS.otherPayer).address,
  };
  // The node holds the keys (hardhat.config.cjs), so transactions go through eth_sendTransaction
  // and the node assigns nonces: concurrent sends never collide.
  const deployer = createWalletClient({ chain: devChain, transport, account: addresses.facilitator });

  const multicallHash = await deployer.deployContract({ abi: multicall3Abi, bytecode: await multicall3Bytecode() });
  const multicall = await publicClient.waitForTransactionReceipt({ hash: multicallHash });
  const multicallCode = await publicClient.getCode({ address: multicall.contractAddress! });
  await provider.request({ method: 'hardhat_setCode', params: [MULTICALL3_ADDRESS, multicallCode] } as never);

  const { abi, bytecode } = await compileTestToken();
  const tokenHash = await deployer.deployContract({ abi, bytecode });
  const token = (await publicClient.waitForTransactionReceipt({ hash: tokenHash })).contractAddress!;
  for (const payer of [addresses.payer, addresses.otherPayer]) {
    const hash = await deployer.writeContract({ address: token, abi, functionName: 'mint', args: [payer, PAYER_FUNDING] });
    await publicClient.waitForTransactionReceipt({ hash });
  }

  return {
    provider,
    token,
    addresses,
    balanceOf: async (address) =>
      (await publicClient.readContract({ address: token, abi, functionName: 'balanceOf', args: [address] })) as bigint,
  };
}
