import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { ContentComposer } from './content/content-composer';
import { BlocksController } from './controllers/blocks.controller';
import { ColumnsController } from './controllers/columns.controller';
import { ContentsController } from './controllers/contents.controller';
import { ProjectsController } from './controllers/projects.controller';
import { EventsController } from './controllers/events.controller';
import { RevisionsController } from './controllers/revisions.controller';
import { RowsController } from './controllers/rows.controller';
import { BlocksRepository } from './repositories/blocks.repository';
import { ColumnsRepository } from './repositories/columns.repository';
import { ContentsRepository } from './repositories/contents.repository';
import { DocumentCache } from './repositories/document-cache';
import { ChangeAnnouncer } from './events/change-announcer';
import { ChangeFeed } from './events/change-feed';
import { EventsRepository } from './repositories/events.repository';
import { HistoryRepository } from './repositories/history.repository';
import { IdempotencyKeysRepository } from './repositories/idempotency-keys.repository';
import { ProjectsRepository } from './repositories/projects.repository';
import { RowsRepository } from './repositories/rows.repository';
import { SiblingOrderRepository } from './repositories/sibling-order.repository';
import { BlocksService } from './services/blocks.service';
import { ColumnsService } from './services/columns.service';
import { ContentsService } from './services/contents.service';
import { EventsService } from './services/events.service';
import { HistoryService } from './services/history.service';
import { ProjectsService } from './services/projects.service';
import { RowsService } from './services/rows.service';
import { TreeWriter } from './services/tree-writer';

/**
 * Projects and everything beneath them (blocks, rows, columns, contents), their history and
 * their live changes.
 */
@Module({
  // Writes check the uploaded assets their bodies name (assets/asset-names.guard.ts).
  imports: [AssetsModule],
  controllers: [
    ProjectsController,
    BlocksController,
    RowsController,
    ColumnsController,
    ContentsController,
    RevisionsController,
    EventsController,
  ],
  providers: [
    ProjectsService,
    BlocksService,
    RowsService,
    ColumnsService,
    ContentsService,
    HistoryService,
    EventsService,
    ChangeFeed,
    ChangeAnnouncer,
    TreeWriter,
    ContentComposer,
    ProjectsRepository,
    BlocksRepository,
    RowsRepository,
    ColumnsRepository,
    ContentsRepository,
    SiblingOrderRepository,
    IdempotencyKeysRepository,
    DocumentCache,
    HistoryRepository,
    EventsRepository,
  ],
  // What publishing renders: a project's current and past documents, and the documents kept.
  exports: [ProjectsRepository, HistoryRepository, DocumentCache],
})
export class LayoutModule {}
