package dev.voiceagent.adapters.documents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.knowledge.DocumentText.Extracted;
import dev.voiceagent.domain.knowledge.DocumentFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.junit.jupiter.api.Test;

/** Real files made with the same libraries, read back: the text, the headings as "#" lines, the metadata. */
class ExtractedTextTest {

    private final ExtractedText extractor = new ExtractedText();

    static byte[] pdf(String... pages) throws IOException {
        try (PDDocument document = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            for (String text : pages) {
                PDPage page = new PDPage();
                document.addPage(page);
                try (PDPageContentStream stream = new PDPageContentStream(document, page)) {
                    stream.beginText();
                    stream.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                    stream.newLineAtOffset(72, 700);
                    stream.showText(text);
                    stream.endText();
                }
            }
            document.getDocumentInformation().setTitle("Clinic handbook");
            document.save(out);
            return out.toByteArray();
        }
    }

    static byte[] docx() throws IOException {
        try (XWPFDocument document = new XWPFDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            var heading = document.createParagraph();
            heading.setStyle("Heading1");
            heading.createRun().setText("Opening hours");
            document.createParagraph().createRun().setText("We are open Monday to Friday, 8 to 18.");
            var sub = document.createParagraph();
            sub.setStyle("Heading2");
            sub.createRun().setText("Holidays");
            document.createParagraph().createRun().setText("Closed on public holidays.");
            XWPFTable table = document.createTable(2, 2);
            table.getRow(0).getCell(0).setText("Day");
            table.getRow(0).getCell(1).setText("Hours");
            table.getRow(1).getCell(0).setText("Saturday");
            table.getRow(1).getCell(1).setText("9-12");
            document.write(out);
            return out.toByteArray();
        }
    }

    @Test
    void pdfPagesAreReadWithTheirCountAndTitle() throws IOException {
        Extracted e = extractor.extract(DocumentFormat.PDF, pdf("Refunds take five business days.", "Call us anytime."));
        assertThat(e.text()).contains("Refunds take five business days.").contains("Call us anytime.");
        assertThat(e.metadata()).containsEntry("pages", 2).containsEntry("title", "Clinic handbook");
    }

    @Test
    void docxHeadingsBecomeMarkdownHeadingsAndTablesRows() throws IOException {
        Extracted e = extractor.extract(DocumentFormat.DOCX, docx());
        assertThat(e.text()).contains("# Opening hours\n\nWe are open Monday to Friday, 8 to 18.")
                .contains("## Holidays\n\nClosed on public holidays.").contains("Saturday | 9-12");
        assertThat(e.metadata()).containsEntry("tables", 1);
    }

    @Test
    void htmlKeepsHeadingsAndBlocksAndDropsScripts() {
        String html = "<html><head><title>FAQ</title><script>var secret = 1;</script></head><body><nav>Home | About</nav>"
                + "<h2>Billing</h2><p>We bill <b>monthly</b>.</p><ul><li>Card</li><li>Transfer</li></ul>"
                + "<table><tr><td>Plan</td><td>Price</td></tr></table></body></html>";
        Extracted e = extractor.extract(DocumentFormat.HTML, html.getBytes(StandardCharsets.UTF_8));
        assertThat(e.text()).contains("## Billing\n\nWe bill monthly.").contains("- Card").contains("Plan | Price")
                .doesNotContain("secret").doesNotContain("Home | About");
        assertThat(e.metadata()).containsEntry("title", "FAQ");
    }

    @Test
    void csvRowsBecomeParagraphsOfColumnValues() {
        Extracted e = extractor.extract(DocumentFormat.CSV, "question,answer\nDo you park?,Yes behind the clinic\n"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(e.text()).isEqualTo("question: Do you park?; answer: Yes behind the clinic\n\n");
        assertThat(e.metadata()).containsEntry("rows", 1);
    }

    @Test
    void aBrokenFileIsRefusedWithTheReason() {
        assertThatThrownBy(() -> extractor.extract(DocumentFormat.PDF, "not a pdf".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("The pdf file could not be read");
        assertThatThrownBy(() -> extractor.extract(DocumentFormat.DOCX, "PK nope".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("The docx file could not be read");
    }
}
