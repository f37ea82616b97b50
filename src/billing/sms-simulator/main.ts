import { startSmsSimulator } from './sms-simulator';

/** `npm run sms-simulator`: an SMS gateway on SMS_SIMULATOR_PORT (default 4020) for local Production runs. */
async function main(): Promise<void> {
  const sim = await startSmsSimulator({
    port: Number(process.env.SMS_SIMULATOR_PORT ?? 4020),
    host: process.env.SMS_SIMULATOR_HOST ?? '127.0.0.1',
    apiKey: process.env.SMS_SIMULATOR_API_KEY,
  });
  process.stdout.write(
    [
      `SMS simulator listening on ${sim.url} (protocol: docs/sms-gateway.md)`,
      `  Point the service at it: SMS_GATEWAY_URL=${sim.url}`,
      `  Fault switches: curl -XPOST ${sim.url}/_control/mode -d '{"mode":"error-once"}'  (normal, error, error-once, reject, hang)`,
      '',
    ].join('\n'),
  );
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`SMS simulator failed to start: ${String(err)}\n`);
  process.exit(1);
});
