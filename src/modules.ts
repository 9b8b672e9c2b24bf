// Every domain the service runs, in start order. Add a domain by adding its module here.
import type { DomainModule } from './module.ts';
import { platformModule } from './platform/index.ts';
import { eventsModule } from './events/index.ts';
import { dataSourcesModule } from './datasources/index.ts';
import { webhooksModule } from './webhooks/index.ts';
import { chatModule } from './chat/index.ts';
import { gatewayModule } from './gateway/index.ts';

export const modules: DomainModule[] = [platformModule, eventsModule, dataSourcesModule, webhooksModule, chatModule, gatewayModule];
