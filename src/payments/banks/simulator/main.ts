import { startBankSimulator } from './bank-simulator';

/** `npm run bank-simulator`: a bank gateway on BANK_SIMULATOR_PORT (default 4010) for local Production runs. */
async function main(): Promise<void> {
  const port = Number(process.env.BANK_SIMULATOR_PORT ?? 4010);
  const sim = await startBankSimulator({
    port,
    host: process.env.BANK_SIMULATOR_HOST ?? '127.0.0.1',
    apiKey: process.env.BANK_SIMULATOR_API_KEY,
    khoumsUrl: process.env.BANK_SIMULATOR_KHOUMS_URL ?? 'http://127.0.0.1:3000/api/v1',
    notificationsSecret: process.env.BANK_NOTIFICATIONS_SECRET,
  });
  process.stdout.write(
    [
      `Bank simulator listening on ${sim.url} (protocol: docs/bank-gateway.md)`,
      `  Point the service at it, e.g. BANK_MASRIVI_URL=${sim.url}`,
      `  Fault switches: curl -XPOST ${sim.url}/_control/mode -d '{"mode":"decline"}'  (normal, decline, error, hang, pending, pending-then-confirm, slow)`,
      `  Send a transfer to a wallet: curl -XPOST ${sim.url}/simulator/transfers -d '{"receivingPhone":"22220000","payerPhone":"22123456","amount":1500}'`,
      `  Notifications (to BANK_SIMULATOR_KHOUMS_URL, signed with BANK_NOTIFICATIONS_SECRET): curl -XPOST ${sim.url}/_control/notifications -d '{"mode":"drop"}'  (normal, drop, repeat, reorder, delay)`,
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
