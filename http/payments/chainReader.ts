// Reads an EIP-3009 token's own record of an authorization over JSON-RPC (X402_RPC_URLS): whether
// its nonce was used, and the transaction that used it with the transfer it made. This lets a lost
// settlement be resolved without the facilitator, also after the authorization expired.
import { createPublicClient, http, parseAbi, parseEventLogs, type Address, type Hex, type PublicClient } from 'viem';
import type { PaymentTerms } from './store/types.ts';

const TOKEN_ABI = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/** How far back the AuthorizationUsed event is looked for (public RPCs refuse unbounded log ranges). */
const LOG_WINDOW_BLOCKS = 50_000n;

export interface AuthorizationUse {
  used: boolean;
  /** The transaction that used it, when found. */
  transaction: string | null;
  /** Whether that transaction moved `amount` from the payer to the pay-to address; null when no transaction was found. */
  paidUs: boolean | null;
}

export interface ChainReader {
  /** The authorization's state on chain; throws when the node cannot be asked. */
  authorizationUse(terms: PaymentTerms, nonce: string): Promise<AuthorizationUse>;
}

export function createChainReader(rpcUrl: string, timeoutMs = 10_000): ChainReader {
  const client: PublicClient = createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 1 }) });
  return {
    async authorizationUse(terms, nonce) {
      const token = terms.asset as Address;
      const used = await client.readContract({ address: token, abi: TOKEN_ABI, functionName: 'authorizationState', args: [terms.payer as Address, nonce as Hex] });
      if (!used) return { used: false, transaction: null, paidUs: null };
      let transaction: Hex | null = null;
      try {
        const latest = await client.getBlockNumber();
        const logs = await client.getLogs({
          address: token,
          event: TOKEN_ABI[1],
          args: { authorizer: terms.payer as Address, nonce: nonce as Hex },
          fromBlock: latest > LOG_WINDOW_BLOCKS ? latest - LOG_WINDOW_BLOCKS : 0n,
          toBlock: latest,
        });
        transaction = logs[0]?.transactionHash ?? null;
      } catch {
        transaction = null; // the node keeps no logs that far back: used, transaction unknown
      }
      if (!transaction) return { used: true, transaction: null, paidUs: null };
      const receipt = await client.getTransactionReceipt({ hash: transaction });
      const transfers = parseEventLogs({ abi: TOKEN_ABI, eventName: 'Transfer', logs: receipt.logs.filter((log) => log.address.toLowerCase() === terms.asset) });
      const paidUs = transfers.some((log) => log.args.from.toLowerCase() === terms.payer && log.args.to.toLowerCase() === terms.payTo && log.args.value === BigInt(terms.amount));
      return { used: true, transaction, paidUs };
    },
  };
}
