import { startBankSimulator } from './bank-simulator';

/** `npm run bank-simulator`: a bank gateway on BANK_SIMULATOR_PORT (default 4010) for local Production runs. */
async function main(): Promise<void> {
  const port = Number(process.env.BANK_SIMULATOR_PORT ?? 4010);
  const sim = await startBankSimulator({
    port,
    host: process.env.BANK_SIMULATOR_HOST ?? '127.0.0.1',
    apiKey: process.env.BANK_SIMULATOR_API_KEY,
  });
  process.stdout.write(
    [
      `Bank simulator listening on ${sim.url} (protocol: docs/bank-gateway.md)`,
      `  Point the service at it, e.g. BANK_MASRIVI_URL=${sim.url}`,
      `  Fault switches: curl -XPOST ${sim.url}/_control/mode -d '{"mode":"decline"}'  (normal, decline, error, hang, pending, pending-then-confirm, slow)`,
      '',
    ].join('\n'),
  );
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`Bank simulator failed to start: ${String(err)}\n`);
  process.exit(1);
});
