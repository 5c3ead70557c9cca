// Compiles the development token with solc-js from npm (no compiler download), once per process.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Abi, Hex } from 'viem';

const require = createRequire(import.meta.url);

export interface CompiledToken {
  abi: Abi;
  bytecode: Hex;
}

let compiled: Promise<CompiledToken> | undefined;

export function compileTestToken(): Promise<CompiledToken> {
  compiled ??= compile();
  return compiled;
}

async function compile(): Promise<CompiledToken> {
  const solc = require('solc') as { compile(input: string): string };
  const source = await readFile(new URL('./TestUSDC.sol', import.meta.url), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'TestUSDC.sol': { content: source } },
    settings: {
      evmVersion: 'paris',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { TestUSDC: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`TestUSDC.sol does not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts['TestUSDC.sol']!.TestUSDC!;
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}
