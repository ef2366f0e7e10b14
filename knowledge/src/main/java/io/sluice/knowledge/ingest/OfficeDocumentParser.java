package io.sluice.knowledge.ingest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.apache.poi.ooxml.POIXMLProperties;
import org.apache.poi.openxml4j.opc.OPCPackage;
import org.apache.poi.openxml4j.util.ZipSecureFile;
import org.apache.poi.ss.usermodel.DataFormatter;
import org.apache.poi.ss.util.CellReference;
import org.apache.poi.util.XMLHelper;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFGroupShape;
import org.apache.poi.xslf.usermodel.XSLFNotes;
import org.apache.poi.xslf.usermodel.XSLFShape;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xslf.usermodel.XSLFTable;
import org.apache.poi.xslf.usermodel.XSLFTableCell;
import org.apache.poi.xslf.usermodel.XSLFTableRow;
import org.apache.poi.xslf.usermodel.XSLFTextShape;
import org.apache.poi.xssf.eventusermodel.ReadOnlySharedStringsTable;
import org.apache.poi.xssf.eventusermodel.XSSFReader;
import org.apache.poi.xssf.eventusermodel.XSSFSheetXMLHandler;
import org.apache.poi.xssf.model.StylesTable;
import org.apache.poi.xssf.usermodel.XSSFComment;
import org.apache.poi.xwpf.usermodel.IBodyElement;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFStyle;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.apache.poi.xwpf.usermodel.XWPFTableCell;
import org.apache.poi.xwpf.usermodel.XWPFTableRow;
import org.xml.sax.InputSource;
import org.xml.sax.XMLReader;

/**
 * Word (.docx), Excel (.xlsx) and PowerPoint (.pptx) documents through Apache POI, within the same
 * {@link ParseLimits} as a PDF. An OOXML file is a zip: before POI opens it, every entry is inflated once,
 * counting, and the file is refused as soon as the total passes the decompressed-size limit (a zip bomb
 * costs at most the limit) or it holds too many entries; POI's own {@link ZipSecureFile} guards (entry size,
 * inflate ratio) stay on underneath. The deadline and the text limit are checked at every paragraph, row
 * and shape. Headings (Word heading styles, sheet names, slide titles) become section headings. Sheets are
 * read as a stream (SAX), never as a whole workbook in memory.
 */
final class OfficeDocumentParser {

    /** More entries than a real document has (a large deck has a few hundred): a crafted file. */
    static final int MAX_ZIP_ENTRIES = 10_000;
    private static final Pattern HEADING_STYLE = Pattern.compile("(?i)^\\s*heading\\s*([1-6])\\s*$");
    private static final Pattern FORBIDDEN = Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F-\\x9F]");
    private static final int MAX_HEADING_DEPTH = 6;

    private final ParseLimits limits;

    OfficeDocumentParser(ParseLimits limits) {
        this.limits = limits;
        // POI's zip guards are process-wide: no single part may inflate past the limit (never below the
        // default one, so a parser with tiny limits does not narrow every other) nor by more than 100:1
        ZipSecureFile.setMaxEntrySize(Math.max(limits.maxDecompressedBytes(), ParseLimits.DEFAULT.maxDecompressedBytes()));
        ZipSecureFile.setMinInflateRatio(0.01);
    }

    ParsedDocument docx(byte[] content) {
        Budget budget = open(content, "Word document");
        try (XWPFDocument doc = new XWPFDocument(new ByteArrayInputStream(content))) {
            Sections sections = new Sections(budget);
            String[] path = new String[MAX_HEADING_DEPTH];
            String title = null;
            for (IBodyElement element : doc.getBodyElements()) {
                budget.checkDeadline();
                if (element instanceof XWPFParagraph paragraph) {
                    String text = paragraph.getText().strip();
                    int level = headingLevel(doc, paragraph);
                    if (level > 0 && !text.isEmpty()) {
                        path[level - 1] = text;
                        for (int i = level; i < MAX_HEADING_DEPTH; i++) {
                            path[i] = null;
                        }
                        if (title == null && level == 1) {
                            title = text;
                        }
                        sections.heading(join(path));
                    } else if (level == 0 && isTitle(doc, paragraph) && !text.isEmpty()) {
                        title = title == null ? text : title;
                    } else {
                        sections.line(text);
                    }
                } else if (element instanceof XWPFTable table) {
                    for (XWPFTableRow row : table.getRows()) {
                        budget.checkDeadline();
                        List<String> cells = new ArrayList<>();
                        for (XWPFTableCell cell : row.getTableCells()) {
                            cells.add(cell.getText().strip());
                        }
                        sections.line(String.join(" | ", cells));
                    }
                }
            }
            return sections.done(firstNonBlank(coreTitle(doc.getProperties()), title));
        } catch (IngestException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw unreadable(e, "Word document");
        }
    }

    ParsedDocument xlsx(byte[] content) {
        Budget budget = open(content, "Excel workbook");
        try (OPCPackage pkg = OPCPackage.open(new ByteArrayInputStream(content))) {
            XSSFReader reader = new XSSFReader(pkg);
            ReadOnlySharedStringsTable strings = new ReadOnlySharedStringsTable(pkg);
            StylesTable styles = reader.getStylesTable();
            Sections sections = new Sections(budget);
            XSSFReader.SheetIterator sheets = (XSSFReader.SheetIterator) reader.getSheetsData();
            while (sheets.hasNext()) {
                try (InputStream sheet = sheets.next()) {
                    sections.heading(sheets.getSheetName());
                    XMLReader parser = XMLHelper.newXMLReader();
                    parser.setContentHandler(new XSSFSheetXMLHandler(styles, null, strings, new Rows(sections, budget),
                        new DataFormatter(Locale.ROOT), false));
                    parser.parse(new InputSource(sheet));
                }
            }
            return sections.done(coreTitle(new POIXMLProperties(pkg)));
        } catch (IngestException e) {
            throw e;
        } catch (Exception e) {
            throw unreadable(e, "Excel workbook");
        }
    }

    ParsedDocument pptx(byte[] content) {
        Budget budget = open(content, "PowerPoint presentation");
        try (XMLSlideShow show = new XMLSlideShow(new ByteArrayInputStream(content))) {
            Sections sections = new Sections(budget);
            String firstTitle = null;
            int number = 0;
            for (XSLFSlide slide : show.getSlides()) {
                budget.checkDeadline();
                number++;
                String slideTitle = slide.getTitle() == null ? "" : slide.getTitle().strip();
                firstTitle = firstTitle == null && !slideTitle.isEmpty() ? slideTitle : firstTitle;
                sections.heading(slideTitle.isEmpty() ? "Slide " + number : slideTitle);
                for (XSLFShape shape : slide.getShapes()) {
                    shape(shape, slideTitle, sections, budget);
                }
                XSLFNotes notes = slide.getNotes();
                if (notes != null) {
                    for (XSLFShape shape : notes.getShapes()) {
                        if (shape instanceof XSLFTextShape text && text.getTextType() != null
                                && text.getTextType().name().equals("SLIDE_NUMBER")) {
                            continue;
                        }
                        shape(shape, slideTitle, sections, budget);
                    }
                }
            }
            return sections.done(firstNonBlank(coreTitle(show.getProperties()), firstTitle));
        } catch (IngestException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw unreadable(e, "PowerPoint presentation");
        }
    }

    private static void shape(XSLFShape shape, String slideTitle, Sections sections, Budget budget) {
        budget.checkDeadline();
        if (shape instanceof XSLFGroupShape group) {
            for (XSLFShape inner : group.getShapes()) {
                shape(inner, slideTitle, sections, budget);
            }
        } else if (shape instanceof XSLFTable table) {
            for (XSLFTableRow row : table.getRows()) {
                List<String> cells = new ArrayList<>();
                for (XSLFTableCell cell : row.getCells()) {
                    cells.add(cell.getText() == null ? "" : cell.getText().strip());
                }
                sections.line(String.join(" | ", cells));
            }
        } else if (shape instanceof XSLFTextShape text) {
            String t = text.getText() == null ? "" : text.getText().strip();
            if (!t.equals(slideTitle)) {
                sections.line(t);
            }
        }
    }

    /**
     * Inflates every entry once, counting, before POI sees the bytes: refuses the file when the total
     * passes the decompressed-size limit, it has too many entries, or it is no zip at all.
     */
    private Budget open(byte[] content, String what) {
        Budget budget = new Budget(limits);
        long total = 0;
        int entries = 0;
        byte[] buffer = new byte[64 * 1024];
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(content))) {
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                if (++entries > MAX_ZIP_ENTRIES) {
                    throw new IngestException(IngestException.Problem.LIMITS_EXCEEDED,
                        "the " + what + " holds more than " + MAX_ZIP_ENTRIES + " parts, the limit");
                }
                int n;
                while ((n = zip.read(buffer)) > 0) {
                    total += n;
                    if (total > limits.maxDecompressedBytes()) {
                        throw new IngestException(IngestException.Problem.LIMITS_EXCEEDED, "the " + what
                            + " decompresses to more than " + limits.maxDecompressedBytes() / (1024 * 1024)
                            + " MiB, the limit");
                    }
                    budget.checkDeadline();
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new IngestException(IngestException.Problem.INVALID, "not a readable " + what);
        }
        if (entries == 0) {
            throw new IngestException(IngestException.Problem.INVALID, "not a readable " + what);
        }
        return budget;
    }

    private static IngestException unreadable(Exception e, String what) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (message.contains("zip bomb") || message.contains("exceeds the maximum")) {
            return new IngestException(IngestException.Problem.LIMITS_EXCEEDED,
                "the " + what + " inflates too much (zip bomb guard)");
        }
        return new IngestException(IngestException.Problem.INVALID, "not a readable " + what);
    }

    private static int headingLevel(XWPFDocument doc, XWPFParagraph paragraph) {
        String styleId = paragraph.getStyleID();
        if (styleId == null) {
            return 0;
        }
        Matcher byId = HEADING_STYLE.matcher(styleId.replaceAll("(?i)^heading", "heading "));
        if (byId.matches()) {
            return Integer.parseInt(byId.group(1));
        }
        XWPFStyle style = doc.getStyles() == null ? null : doc.getStyles().getStyle(styleId);
        if (style != null && style.getName() != null) {
            Matcher byName = HEADING_STYLE.matcher(style.getName());
            if (byName.matches()) {
                return Integer.parseInt(byName.group(1));
            }
        }
        return 0;
    }

    private static boolean isTitle(XWPFDocument doc, XWPFParagraph paragraph) {
        String styleId = paragraph.getStyleID();
        if (styleId == null) {
            return false;
        }
        XWPFStyle style = doc.getStyles() == null ? null : doc.getStyles().getStyle(styleId);
        String name = style != null && style.getName() != null ? style.getName() : styleId;
        return name.equalsIgnoreCase("title");
    }

    private static String coreTitle(POIXMLProperties properties) {
        String title = properties == null || properties.getCoreProperties() == null ? null
            : properties.getCoreProperties().getTitle();
        return title == null || title.isBlank() ? null : clean(title).strip();
    }

    private static String firstNonBlank(String a, String b) {
        return a != null && !a.isBlank() ? a : b;
    }

    private static String clean(String text) {
        return FORBIDDEN.matcher(text).replaceAll("");
    }

    private static String join(String[] path) {
        StringBuilder sb = new StringBuilder();
        for (String p : path) {
            if (p != null) {
                sb.append(sb.isEmpty() ? "" : " › ").append(p);
            }
        }
        return sb.toString();
    }

    /** The parse's deadline and text allowance. */
    private static final class Budget {
        private final ParseLimits limits;
        private final long deadline;
        private long chars;

        Budget(ParseLimits limits) {
            this.limits = limits;
            this.deadline = System.nanoTime() + limits.maxParseTime().toNanos();
        }

        void checkDeadline() {
            if (System.nanoTime() - deadline > 0) {
                throw new IngestException(IngestException.Problem.LIMITS_EXCEEDED,
                    "parsing the document took longer than " + limits.maxParseTime().toSeconds() + " s, the limit");
            }
        }

        void spend(int n) {
            chars += n;
            if (chars > limits.maxTextChars()) {
                throw new IngestException(IngestException.Problem.LIMITS_EXCEEDED,
                    "the document holds more than " + limits.maxTextChars() + " characters of text, the limit");
            }
        }
    }

    /** Text lines collected under the current heading, within the budget. */
    private static final class Sections {
        private final Budget budget;
        private final List<ParsedDocument.Section> sections = new ArrayList<>();
        private final StringBuilder body = new StringBuilder();
        private String heading = "";

        Sections(Budget budget) {
            this.budget = budget;
        }

        void heading(String next) {
            flush();
            heading = clean(next == null ? "" : next).strip();
            budget.spend(heading.length());
        }

        void line(String text) {
            String t = clean(text == null ? "" : text).strip();
            if (!t.isEmpty()) {
                budget.spend(t.length() + 1);
                body.append(t).append('\n');
            }
        }

        private void flush() {
            String text = body.toString().strip();
            body.setLength(0);
            if (!text.isEmpty()) {
                sections.add(new ParsedDocument.Section(heading, text));
            }
        }

        ParsedDocument done(String title) {
            flush();
            return new ParsedDocument(title, sections);
        }
    }

    /**
     * One sheet's rows as lines. The first row with text is taken as the header, and each later row is
     * written "header: value; header: value", so a chunk cut from the middle of a sheet still says what
     * its numbers are.
     */
    private static final class Rows implements XSSFSheetXMLHandler.SheetContentsHandler {
        private final Sections sections;
        private final Budget budget;
        private final List<String> header = new ArrayList<>();
        private final List<String> row = new ArrayList<>();
        private boolean headerDone;

        Rows(Sections sections, Budget budget) {
            this.sections = sections;
            this.budget = budget;
        }

        @Override
        public void startRow(int rowNum) {
            budget.checkDeadline();
            row.clear();
        }

        @Override
        public void cell(String cellReference, String formattedValue, XSSFComment comment) {
            int column = cellReference == null ? row.size() : new CellReference(cellReference).getCol();
            while (row.size() < column) {
                row.add("");
            }
            String value = formattedValue == null ? "" : formattedValue.strip();
            budget.spend(value.length());
            row.add(value);
        }

        @Override
        public void endRow(int rowNum) {
            if (row.stream().allMatch(String::isEmpty)) {
                return;
            }
            if (!headerDone) {
                header.addAll(row);
                headerDone = true;
                sections.line(String.join(" | ", row));
                return;
            }
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                if (row.get(i).isEmpty()) {
                    continue;
                }
                String name = i < header.size() ? header.get(i) : "";
                parts.add(name.isEmpty() ? row.get(i) : name + ": " + row.get(i));
            }
            sections.line(String.join("; ", parts));
        }

        @Override
        public void headerFooter(String text, boolean isHeader, String tagName) {
            // page headers and footers of a sheet are print layout, not knowledge
        }
    }
}
