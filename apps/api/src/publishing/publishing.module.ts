import { Module } from '@nestjs/common';
import { LayoutModule } from '../layout/layout.module';
import { LinkViews } from './links/link-views';
import { LinksController } from './links/links.controller';
import { LinksRepository } from './links/links.repository';
import { LinksService } from './links/links.service';
import { ProjectDocuments } from './project-documents';
import { RenderController } from './render.controller';
import { RenderedPages } from './rendered-pages';
import { SharedController } from './shared.controller';

/** A project sent out: rendered as a page, and shown behind share links. */
@Module({
  imports: [LayoutModule],
  controllers: [RenderController, LinksController, SharedController],
  providers: [ProjectDocuments, RenderedPages, LinksService, LinksRepository, LinkViews],
})
export class PublishingModule {}
