import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { ContentComposer } from './content/content-composer';
import { BatchController } from './controllers/batch.controller';
import { BlocksController } from './controllers/blocks.controller';
import { ColumnsController } from './controllers/columns.controller';
import { ContentsController } from './controllers/contents.controller';
import { ProjectsController } from './controllers/projects.controller';
import { EventsController } from './controllers/events.controller';
import { PresenceController } from './controllers/presence.controller';
import { RevisionsController } from './controllers/revisions.controller';
import { RowsController } from './controllers/rows.controller';
import { DocumentCache } from './repositories/document-cache';
import { ChangeAnnouncer, PresenceAnnouncer } from './events/change-announcer';
import { ChangeFeed } from './events/change-feed';
import { PresenceFeed } from './events/presence-feed';
import { EventsRepository } from './repositories/events.repository';
import { HistoryRepository } from './repositories/history.repository';
import { IdempotencyKeysRepository } from './repositories/idempotency-keys.repository';
import { PresenceRepository } from './repositories/presence.repository';
import { ProjectsRepository } from './repositories/projects.repository';
import { EventsService } from './services/events.service';
import { PresenceService } from './services/presence.service';
import { HistoryService } from './services/history.service';
import { ProjectsService } from './services/projects.service';
import { BatchService } from './services/batch.service';
import { ColumnContents } from './services/column-contents';
import { NodeWrites } from './services/node-writes';
import { NodesService } from './services/nodes.service';
import { NodesRepository } from './repositories/nodes.repository';
import { TreeWriter } from './services/tree-writer';

/**
 * Projects and everything beneath them (blocks, rows, columns, contents), their history and
 * their live changes, and who has them open (presence, which travels with the live changes).
 */
@Module({
  // Writes check the uploaded assets their bodies name (assets/asset-names.ts).
  imports: [AssetsModule],
  controllers: [
    ProjectsController,
    BlocksController,
    RowsController,
    ColumnsController,
    ContentsController,
    RevisionsController,
    EventsController,
    PresenceController,
    BatchController,
  ],
  providers: [
    ProjectsService,
    NodesService,
    BatchService,
    NodeWrites,
    ColumnContents,
    HistoryService,
    EventsService,
    PresenceService,
    ChangeFeed,
    PresenceFeed,
    ChangeAnnouncer,
    PresenceAnnouncer,
    TreeWriter,
    ContentComposer,
    ProjectsRepository,
    NodesRepository,
    IdempotencyKeysRepository,
    DocumentCache,
    HistoryRepository,
    EventsRepository,
    PresenceRepository,
  ],
  // What publishing renders: a project's current and past documents, and the documents kept.
  exports: [ProjectsRepository, HistoryRepository, DocumentCache],
})
export class LayoutModule {}
