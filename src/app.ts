import { NestFactory } from '@nestjs/core';
import cookieParser from 'cookie-parser';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule, AppModuleOptions } from './app.module';
import { bodyParsers } from './common/http/body-parsers';
import { configureViews } from './common/http/views';

/** The configured application, shared by `main.ts`, the tests and the benchmark. */
export async function createApp(options: AppModuleOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(options), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(...bodyParsers());
  app.use(cookieParser());
  configureViews(app);

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Khoums API')
      .setDescription('Payment requests, hosted checkout, bank-app payments, billing and webhooks. Send the API key in `Authorization`.')
      .setVersion('1')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization' }, 'apiKey')
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
  return app;
}
